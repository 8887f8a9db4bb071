// The ViewfinderReactive module.
