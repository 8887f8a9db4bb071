// The ViewfinderImaging module.
