// Viewfinder: one API for cameras on Linux. Importing this module brings in every part of the library: the cameras
// (ViewfinderCameras), capture devices and imaging, barcode capture and rigs.

@_exported import ViewfinderBarcode
@_exported import ViewfinderCameras
@_exported import ViewfinderImaging
@_exported import ViewfinderRig
@_exported import ViewfinderV4L2
