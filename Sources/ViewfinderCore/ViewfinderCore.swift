// The ViewfinderCore module.
