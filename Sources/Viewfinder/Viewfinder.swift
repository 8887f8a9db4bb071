// Viewfinder: one API for cameras on Linux. Importing this module brings in every part of the library.

@_exported import ViewfinderCore
@_exported import ViewfinderImaging
@_exported import ViewfinderPTP
@_exported import ViewfinderReactive
@_exported import ViewfinderSimulator
@_exported import ViewfinderV4L2
