// The ViewfinderPTP module.
