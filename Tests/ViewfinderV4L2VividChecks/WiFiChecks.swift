import ViewfinderCore
import ViewfinderDiscovery
import ViewfinderTestSupport

/// The network a Fujifilm names: the SSID hostapd serves on the VM's first simulated radio.
let fujifilmNetwork = "FUJIFILM-X-T4-VF01"

/// Finds a Fujifilm by the WiFi network joined, over the kernel's simulated radios (mac80211_hwsim).
///
/// hostapd serves ``fujifilmNetwork`` on wlan0 (the camera's side, 192.168.0.1, where `viewfinder simulate --identity fuji` serves
/// Fujifilm's WiFi protocol), wpa_supplicant joins it on wlan1 (192.168.0.2, gateway 192.168.0.1). The kernel's
/// nl80211 answers which network is joined; discovery names the camera from it, and the tool connects to it.
///
/// - Parameter tool: The `viewfinder` tool.
func runWiFiChecks(_ runner: CheckRunner, tool: String) async {
    await runner.run("wifi-joined-network") {
        var joined: [JoinedWirelessNetwork] = []
        var failure: ViewfinderError?
        _ = await wait(upTo: .seconds(60)) {
            do throws(ViewfinderError) {
                joined = try JoinedWirelessNetwork.all()
            } catch {
                failure = error
            }
            return joined.contains { $0.interface == "wlan1" }
        }
        let network = try require(
            joined.first { $0.interface == "wlan1" },
            "wlan1 joined no network within 60 s: \(joined)\(failure.map { "; last error: \($0)" } ?? "")")
        try expect(network.name == fujifilmNetwork, "wlan1 joined \(network.name), not \(fujifilmNetwork)")
        try expect(
            !joined.contains { $0.interface == "wlan0" }, "the access point's own interface is listed: \(joined)")
        return "nl80211 says wlan1 joined \(network.name); the access point wlan0 is not listed"
    }

    await runner.run("wifi-discover-fujifilm") {
        let result = try ChildProcess.run(tool, ["discover", "--json", "--timeout", "5"], timeout: .seconds(60))
        try expect(result.status == 0, "viewfinder discover --json ended with \(result)")
        let json = result.standardOutput
        for field in [
            "\"name\" : \"\(fujifilmNetwork)\"", "\"model\" : \"X-T4\"", "\"family\" : \"fujifilm\"",
            "\"host\" : \"192.168.0.1\"", "\"wifi\"",
        ] {
            try expect(json.contains(field), "discover --json lacks \(field):\n\(json)")
        }
        return "discover --json lists \(fujifilmNetwork), an X-T4 at 192.168.0.1 found by wifi"
    }

    await runner.run("wifi-fujifilm-connects") {
        let result = try ChildProcess.run(
            tool, ["camera", "info", "--camera", fujifilmNetwork, "--json"], timeout: .seconds(90))
        try expect(result.status == 0, "viewfinder camera info --camera \(fujifilmNetwork) ended with \(result)")
        try expect(result.standardOutput.contains("X-T4"), "camera info names no X-T4:\n\(result.standardOutput)")
        return "camera info --camera \(fujifilmNetwork) reached the simulated X-T4 over Fujifilm's WiFi protocol"
    }
}
