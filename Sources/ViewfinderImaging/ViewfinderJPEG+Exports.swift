// ViewfinderImaging builds on ViewfinderJPEG: importing this module brings in JPEG decoding too.

@_exported import ViewfinderJPEG
