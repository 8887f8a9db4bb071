// The ViewfinderV4L2 module.
