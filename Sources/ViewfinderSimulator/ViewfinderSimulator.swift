// The ViewfinderSimulator module.
