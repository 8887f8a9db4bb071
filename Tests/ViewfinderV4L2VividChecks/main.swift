// Checks of the V4L2 backend against the kernel's vivid driver, run inside a VM by Scripts/vivid-vm.sh.
//
// Usage: vivid-checks                      runs every capture check against /dev/video0 and /dev/video1
//        vivid-checks hotplug READY ADDED  reports vivid's nodes appearing and disappearing; touches READY once
//                                          watching and ADDED once the node appeared, so the caller can unload it
//        vivid-checks cli VIEWFINDER       runs the viewfinder tool at VIEWFINDER against the same devices
//        vivid-checks barcode PNG TEXT [VIEWFINDER]
//                                          loops frames of the QR code in PNG, which says TEXT, from the output node
//                                          back to the capture node and reads it there, through a CameraSource context
//                                          and, given its path, with `VIEWFINDER scan`
//        vivid-checks webcam VIEWFINDER    loops `VIEWFINDER webcam` from the output node back to the capture node
//        vivid-checks webcam-loopback VIEWFINDER DEVICE
//                                          runs `VIEWFINDER webcam` to the v4l2loopback DEVICE and reads it back there
//        vivid-checks webcam-http VIEWFINDER DEVICE
//                                          the same with a simulated camera that speaks HTTP (Sony's Camera Remote API)
//        vivid-checks usb-mtp FOLDER GADGET
//                                          the PTP over USB transport against umtp-responder serving FOLDER from the
//                                          configfs gadget GADGET, which it unbinds and binds again
//        vivid-checks usb-camera IDENTITY VIEWFINDER GPHOTO2
//                                          gphoto2 and VIEWFINDER against `VIEWFINDER simulate --usb` as IDENTITY
//        vivid-checks usb-replay NAME VIEWFINDER
//                                          VIEWFINDER against `VIEWFINDER simulate --replay LOG --usb` of trace NAME
//        vivid-checks usb-privileges IDENTITY PID
//                                          `viewfinder simulate --usb` as IDENTITY, process PID, serves as nobody
//        vivid-checks usb-permission VIEWFINDER
//                                          as nobody, opening the USB camera fails naming the udev rule, in the API
//                                          and in VIEWFINDER
//        vivid-checks usb-benchmark VIEWFINDER GPHOTO2 MEGABYTES
//                                          downloads a file of MEGABYTES from `VIEWFINDER simulate --usb`, and with
//                                          GPHOTO2
//        vivid-checks wifi VIEWFINDER      finds the simulated Fujifilm by the WiFi network wlan1 joined, and connects
//        vivid-checks webcam-benchmark VIEWFINDER OUTPUT SECONDS
//                                          measures `VIEWFINDER webcam` against gphoto2 | ffmpeg on a v4l2loopback device
import ViewfinderCore
import ViewfinderV4L2

#if canImport(Glibc)
import Glibc
#endif

let runner = CheckRunner()
let arguments = CommandLine.arguments

if arguments.count == 4 && arguments[1] == "hotplug" {
    await runHotplugChecks(runner, readyFile: arguments[2], addedFile: arguments[3])
} else if (4...5).contains(arguments.count) && arguments[1] == "barcode" {
    await runBarcodeLoopCheck(
        runner, picture: arguments[2], text: arguments[3], tool: arguments.count == 5 ? arguments[4] : nil)
} else if arguments.count == 5 && arguments[1] == "webcam-benchmark", let seconds = Int(arguments[4]) {
    exit(runWebcamBenchmark(tool: arguments[2], output: arguments[3], seconds: seconds) ? 0 : 1)
} else if arguments.count == 3 && arguments[1] == "webcam" {
    await runWebcamLoopCheck(runner, tool: arguments[2])
} else if arguments.count == 5 && arguments[1] == "usb-camera" {
    await runUSBCameraChecks(runner, identity: arguments[2], tool: arguments[3], gphoto2: arguments[4])
} else if arguments.count == 4 && arguments[1] == "usb-replay", let replay = USBReplay.all[arguments[2]] {
    await runUSBReplayCheck(runner, name: arguments[2], tool: arguments[3], model: replay.model, values: replay.values)
} else if arguments.count == 4 && arguments[1] == "usb-privileges", let simulator = pid_t(arguments[3]) {
    await runUSBPrivilegeCheck(runner, identity: arguments[2], simulator: simulator)
} else if arguments.count == 3 && arguments[1] == "usb-permission" {
    await runUSBPermissionCheck(runner, tool: arguments[2])
} else if arguments.count == 5 && arguments[1] == "usb-benchmark", let megabytes = Int(arguments[4]) {
    exit(await runUSBBenchmark(tool: arguments[2], gphoto2: arguments[3], megabytes: megabytes) ? 0 : 1)
} else if arguments.count == 4 && arguments[1] == "usb-mtp" {
    await runUSBMTPChecks(runner, folder: arguments[2], gadget: arguments[3])
} else if arguments.count == 4 && arguments[1] == "webcam-loopback" {
    await runWebcamLoopbackCheck(runner, tool: arguments[2], device: arguments[3])
} else if arguments.count == 3 && arguments[1] == "wifi" {
    await runWiFiChecks(runner, tool: arguments[2])
} else if arguments.count == 4 && arguments[1] == "webcam-http" {
    await runWebcamHTTPCameraCheck(runner, tool: arguments[2], device: arguments[3])
} else if arguments.count == 3 && arguments[1] == "cli" {
    await runCLIChecks(runner, tool: arguments[2])
} else {
    await runCaptureChecks(runner)
}
exit(runner.failures == 0 ? 0 : 1)
