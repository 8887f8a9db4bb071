// ViewfinderCameras: the cameras part of Viewfinder alone. Importing this module brings in the camera model, the
// reactive layer, PTP with every dialect, PTP/IP, PTP over USB, Panasonic Lumix, Olympus and Sony's Camera Remote API over
// HTTP, discovery, the JPEG
// decoding live view needs and the automations, and links no libyuv, libpng, zxing-cpp or V4L2 code.

@_exported import ViewfinderAutomation
@_exported import ViewfinderCore
@_exported import ViewfinderDiscovery
@_exported import ViewfinderJPEG
@_exported import ViewfinderLumix
@_exported import ViewfinderOlympus
@_exported import ViewfinderPTP
@_exported import ViewfinderPTPIP
@_exported import ViewfinderPTPUSB
@_exported import ViewfinderReactive
@_exported import ViewfinderSonyRemote

extension CameraDiscovery {
    /// Discovery through every transport Viewfinder has: USB for attached cameras (addresses `usb:BUS:ADDRESS`), and
    /// for cameras on the network Panasonic's HTTP API for Panasonic cameras, Olympus's for Olympus and OM System
    /// cameras, Sony's Camera Remote API for the older Sony bodies that speak it and PTP/IP for the others, with the gateways of the kernel's routing table.
    ///
    /// ```swift
    /// let manualDiscovery = CameraDiscovery.shared.manualDiscovery
    /// manualDiscovery.discover(.cameraAtSuggestedGateway(.canon)) { result in
    ///     switch result {
    ///     case .success(let camera):
    ///         // Use the camera. Make sure you keep a strong reference to it!
    ///     case .failure(let error):
    ///         print("Couldn't resolve camera with error: \(error)")
    ///     }
    /// }
    /// ```
    ///
    /// Automatic discovery (`beginSearching()`) listens with every searcher Viewfinder has:
    /// multicast DNS for `_ptp._tcp` services, SSDP for Canon's, Sony's and MTP cameras' services, and the kernel's
    /// device events for cameras plugged in and out by USB, and the WiFi networks joined for cameras that are their
    /// own access point and announce nothing else (Fujifilm).
    public static let shared: CameraDiscovery = {
        let discovery = CameraDiscovery(connectors: [
            PTPUSBCameraConnector(), FujiWiFiCameraConnector(), LumixCameraConnector(), OlympusCameraConnector(),
            SonyRemoteCameraConnector(), PTPIPCameraConnector(),
        ])
        discovery.register(MulticastDNSSearcher())
        discovery.register(SSDPSearcher())
        discovery.register(USBCameraSearcher())
        discovery.register(WirelessNetworkSearcher())
        return discovery
    }()
}
