import Foundation
import GIFTestSupport
import Testing
import X11Window

#if canImport(Glibc)
  import Glibc
#endif

// DESIGN §6 / issue 5: `make install` into a temporary PREFIX, then what a desktop does with
// it: the desktop entry, the image/gif default, xdg-open end to end under Xvfb, the manual
// page, a binary that needs no toolchain, and `make uninstall` removing exactly that.

/// A finished command: exit status (nil: still running at the timeout, then killed) and output.
private struct CommandResult {
  var status: Int32?
  var stdout: String
  var stderr: String
  var output: String { stdout + (stderr.isEmpty ? "" : "\n[stderr]\n" + stderr) }
}

/// Runs `body` with no signal blocked on this thread. Foundation's Process starts a child
/// with the starting thread's signal mask, and Swift Testing runs tests on libdispatch
/// worker threads, which block SIGTERM and most other signals: a child started there
/// ignores `terminate()` (and an Xvfb whose deinit waits for it to end hangs the run).
/// Runs `argv` with exactly `environment` (`env -i`: nothing of the test's own leaks in).
private func runCommand(_ argv: [String], environment: [String: String], timeout: Double = 60) throws -> CommandResult {
  let p = try withUnblockedSignals { try RunningProcess("/usr/bin/env", environmentArguments(environment) + argv) }
  let status = p.wait(timeout: timeout)
  if status == nil { p.process.terminate() }
  return CommandResult(status: status, stdout: p.stdout, stderr: p.stderr)
}

/// `-i K=V …` for /usr/bin/env.
private func environmentArguments(_ environment: [String: String]) -> [String] {
  ["-i"] + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
}

/// The temporary installation all the tests of `InstallTests` share: `make install` runs once
/// (a release build with the static Swift runtime takes minutes the first time).
private struct Installation: Sendable {
  let root: String
  let prefix: String
  let home: String
  let status: Int32?
  let log: String

  var dataHome: String { home + "/.local/share" }
  var configHome: String { home + "/.config" }
  var mimeappsList: String { configHome + "/mimeapps.list" }
  var manifest: String { prefix + "/share/gifview/install-manifest.txt" }
  /// Another `gifview` that comes first on PATH, with a manual page of its own, as
  /// gifsicle's /usr/bin/gifview does: running it leaves `decoyRanMarker` behind.
  var decoy: String { root + "/decoy" }
  var decoyRanMarker: String { decoy + "/bin/gifview.ran" }

  /// A user's session with gifview installed under `prefix`: its bin first on PATH, its
  /// share in XDG_DATA_DIRS. No XDG_CURRENT_DESKTOP, DESKTOP_SESSION or the like: with no
  /// desktop environment detected, xdg-mime and xdg-open take their "generic" path, which
  /// reads $XDG_CONFIG_HOME/mimeapps.list and runs the Exec line of the .desktop file found
  /// in $XDG_DATA_DIRS/applications (on GNOME or KDE they would hand over to gio or kde-open).
  var session: [String: String] {
    [
      "PATH": "\(decoy)/bin:\(prefix)/bin:/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8",
      "XDG_DATA_HOME": dataHome, "XDG_CONFIG_HOME": configHome,
      "XDG_DATA_DIRS": "\(prefix)/share:/usr/share",
    ]
  }

  /// The test's own environment (for swift and make) with the temporary user's XDG
  /// directories, and nothing that would steer make, xdg-mime or the install elsewhere.
  var makeEnvironment: [String: String] {
    var env = ProcessInfo.processInfo.environment
    for key in [
      "NO_MIME_DEFAULT", "DESTDIR", "PREFIX", "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "DISPLAY", "WAYLAND_DISPLAY",
      "XDG_CURRENT_DESKTOP", "XDG_SESSION_DESKTOP", "DESKTOP_SESSION", "KDE_FULL_SESSION",
      "GNOME_DESKTOP_SESSION_ID", "XDG_CONFIG_DIRS",
    ] {
      env[key] = nil
    }
    env["HOME"] = home
    env["PATH"] = decoy + "/bin:" + (env["PATH"] ?? "/usr/bin:/bin")
    env["XDG_DATA_HOME"] = dataHome
    env["XDG_CONFIG_HOME"] = configHome
    env["XDG_DATA_DIRS"] = "\(prefix)/share:/usr/share"
    return env
  }

  /// Files that are in the PREFIX and the user's config before install: uninstall must
  /// leave them as they were ("and nothing else").
  static let bystanders: [String: String] = [
    "bin/other-tool": "#!/bin/sh\necho other\n",
    "share/doc/other/README": "not gifview's\n",
  ]
  static let mimeappsBefore = "[Default Applications]\ntext/plain=other.desktop\n"

  static let shared: Installation = {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "gifview-install-\(UUID().uuidString.prefix(8))"
    ).path
    let home = root + "/home"
    let prefix = root + "/prefix"
    let fm = FileManager.default
    for (path, text) in bystanders {
      let full = prefix + "/" + path
      try? fm.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      _ = fm.createFile(atPath: full, contents: Data(text.utf8))
    }
    try? fm.createDirectory(atPath: home + "/.config", withIntermediateDirectories: true)
    try? fm.createDirectory(atPath: home + "/.local/share", withIntermediateDirectories: true)
    _ = fm.createFile(atPath: home + "/.config/mimeapps.list", contents: Data(mimeappsBefore.utf8))
    let decoy = root + "/decoy"
    try? fm.createDirectory(atPath: decoy + "/share/man/man1", withIntermediateDirectories: true)
    try? fm.createDirectory(atPath: decoy + "/bin", withIntermediateDirectories: true)
    _ = fm.createFile(
      atPath: decoy + "/bin/gifview", contents: Data("#!/bin/sh\ntouch \"$0.ran\"\nexit 3\n".utf8),
      attributes: [.posixPermissions: 0o755])
    _ = fm.createFile(
      atPath: decoy + "/share/man/man1/gifview.1",
      contents: Data(".TH GIFVIEW 1\n.SH NAME\ngifview \\- not ours\n".utf8))

    let pending = Installation(root: root, prefix: prefix, home: home, status: nil, log: "")
    // `swift test` holds the lock on .build while the tests run, so the build inside make
    // install would wait for it forever: --ignore-lock (nothing else builds meanwhile, as
    // every other SwiftPM command waits for the outer lock). nice: the suites that measure
    // frame timing run at the same time.
    let result: CommandResult
    do {
      result = try runCommand(
        [
          "nice", "-n", "10", "make", "-C", repositoryRoot.path, "install", "PREFIX=\(prefix)",
          "INSTALL_BUILD_FLAGS=--ignore-lock",
        ], environment: pending.makeEnvironment, timeout: 3600)
    } catch {
      return Installation(root: root, prefix: prefix, home: home, status: nil, log: "could not run make: \(error)")
    }
    return Installation(root: root, prefix: prefix, home: home, status: result.status, log: result.output)
  }()

  static func installed() throws -> Installation {
    let i = shared
    try #require(i.status == 0, "make install failed (status \(String(describing: i.status))):\n\(i.log)")
    return i
  }
}

private let pngSizes = [16, 22, 24, 32, 48, 64, 128, 256]

/// Everything below `dir`, relative, files and directories.
private func tree(_ dir: String) -> Set<String> {
  Set((FileManager.default.enumerator(atPath: dir)?.allObjects as? [String]) ?? [])
}

@Suite("make install, the desktop entry and xdg-open", .serialized)
struct InstallTests {
  @Test func installPutsEveryFileOfDesign6InPlaceAndRecordsIt() throws {
    let inst = try Installation.installed()
    let files =
      [
        "bin/gifview", "share/applications/gifview.desktop", "share/icons/hicolor/scalable/apps/gifview.svg",
        "share/man/man1/gifview.1",
      ] + pngSizes.map { "share/icons/hicolor/\($0)x\($0)/apps/gifview.png" }
    let manifest = try String(contentsOfFile: inst.manifest, encoding: .utf8)
    for file in files {
      let path = inst.prefix + "/" + file
      #expect(FileManager.default.fileExists(atPath: path), "missing \(file)")
      #expect(manifest.contains("\nfile \(path)\n"), "\(file) is not in the manifest")
    }
    #expect(FileManager.default.isExecutableFile(atPath: inst.prefix + "/bin/gifview"))
    // Each PNG has the size its directory says.
    for size in pngSizes {
      let png = try Data(
        contentsOf: URL(fileURLWithPath: inst.prefix + "/share/icons/hicolor/\(size)x\(size)/apps/gifview.png"))
      let bytes = [UInt8](png)
      try #require(bytes.count > 24 && Array(bytes[1...3]) == [0x50, 0x4E, 0x47], "not a PNG: \(size)")
      let width = bytes[16...19].reduce(0) { $0 << 8 | Int($1) }
      let height = bytes[20...23].reduce(0) { $0 << 8 | Int($1) }
      #expect(width == size && height == size, "the \(size)x\(size) icon is \(width)x\(height)")
    }
    // The bystanders are not gifview's.
    for path in Installation.bystanders.keys {
      #expect(!manifest.contains(path), "the manifest claims \(path)")
    }
  }

  @Test func theInstalledDesktopEntryValidates() throws {
    let inst = try Installation.installed()
    let desktop = inst.prefix + "/share/applications/gifview.desktop"
    let r = try runCommand(["desktop-file-validate", desktop], environment: inst.session)
    #expect(r.status == 0 && r.stdout.isEmpty && r.stderr.isEmpty, "desktop-file-validate: \(r.output)")
    let text = try String(contentsOfFile: desktop, encoding: .utf8)
    // The binary by its absolute path: no other gifview on a launcher's PATH can stand in.
    let binary = inst.prefix + "/bin/gifview"
    for line in [
      "Exec=\(binary) %U", "MimeType=image/gif;", "Icon=gifview", "TryExec=\(binary)", "StartupWMClass=Gifview",
    ] {
      #expect(text.contains("\n\(line)\n"), "no \(line)")
    }
  }

  @Test func installSaysHowToReachOurManualPageWhenAnotherShadowsIt() throws {
    let inst = try Installation.installed()
    let ours = inst.prefix + "/share/man/man1/gifview.1"
    // The decoy's directory comes first on PATH, so man-db finds its page first.
    #expect(inst.log.contains("another program's page (\(inst.decoy)/share/man/man1/gifview.1)"), "\(inst.log)")
    #expect(inst.log.contains("man -l \(ours)"), "\(inst.log)")
    #expect(inst.log.contains("MANPATH=\(inst.prefix)/share/man:"), "\(inst.log)")
    // And the advice works: `man -l` shows our page.
    let man = try runCommand(["man", "-l", ours], environment: ["PATH": "/usr/bin:/bin", "MANWIDTH": "80"])
    #expect(man.stdout.contains("play animated GIFs in an X11 window"), "\(man.output)")
  }

  @Test func gifviewIsTheDefaultForImageGIF() throws {
    let inst = try Installation.installed()
    let r = try runCommand(["xdg-mime", "query", "default", "image/gif"], environment: inst.session)
    #expect(r.status == 0)
    #expect(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "gifview.desktop", "xdg-mime: \(r.output)")
  }

  @Test func theBinaryCarriesItsSwiftRuntime() throws {
    let inst = try Installation.installed()
    let binary = inst.prefix + "/bin/gifview"
    let ldd = try runCommand(["ldd", binary], environment: ["PATH": "/usr/bin:/bin"])
    #expect(ldd.status == 0, "ldd: \(ldd.output)")
    let toolchainLibraries = [
      "libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime", "libTesting",
    ]
    for line in ldd.stdout.split(separator: "\n") {
      #expect(!toolchainLibraries.contains { line.contains($0) }, "linked to a toolchain library: \(line)")
      #expect(!line.contains("not found"), "\(line)")
    }
    // No LD_LIBRARY_PATH, no toolchain on PATH.
    let version = try runCommand([binary, "--version"], environment: ["PATH": "/usr/bin:/bin"])
    #expect(version.status == 0, "\(version.output)")
    #expect(version.stdout.hasPrefix("gifview "), "\(version.output)")
  }

  @Test func theManualPageRendersWithoutWarningsAndCoversEveryOptionAndKey() throws {
    let inst = try Installation.installed()
    let page = inst.prefix + "/share/man/man1/gifview.1"
    let env = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "MANWIDTH": "80"]
    let man = try runCommand(["man", "--warnings", "-l", page], environment: env)
    #expect(man.status == 0 && man.stderr.isEmpty, "man: \(man.stderr)")
    let groff = try runCommand(["groff", "-man", "-ww", "-z", page], environment: env)
    #expect(groff.status == 0 && groff.stderr.isEmpty, "groff: \(groff.stderr)")
    let text = man.stdout
    for section in [
      "NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "KEYS", "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES",
      "SEE ALSO",
    ] {
      #expect(text.contains("\n\(section)\n"), "no \(section) section")
    }
    for word in [
      "DISPLAY", "XDG_CACHE_HOME", "SSL_CERT_FILE", "HOME", "~/.cache/gifview", "gifview.desktop", "gifsicle(1)",
      "xdg-open(1)",
    ] {
      #expect(text.contains(word), "the page does not mention \(word)")
    }

    // Every option the parser knows (its `case "-x", "--xyz":` rows), as a word of its own.
    let optionNames = try parserOptionNames()
    #expect(optionNames.count > 20, "could not read the options: \(optionNames)")
    for option in optionNames {
      #expect(mentions(text, option), "the page does not document \(option)")
    }

    // Every key of the key table, as the KEYS section spells it.
    let commands = try String(
      contentsOf: repositoryRoot.appendingPathComponent("Sources/gifview/KeyTable.swift"), encoding: .utf8)
    let named = [
      "right": "Right", "left": "Left", "home": "Home", "end": "End", "backspace": "BackSpace",
      "pageDown": "Page_Down", "pageUp": "Page_Up", "escape": "Escape", "up": "Up", "down": "Down",
      "enter": "Enter",
    ]
    var keys: [String] = []
    for row in commands.split(separator: "\n") where row.contains("KeyBinding(keys: [") {
      guard let open = row.range(of: "keys: ["), let close = row.range(of: "], command:") else { continue }
      var rest = row[open.upperBound..<close.lowerBound]
      while !rest.isEmpty {
        if rest.hasPrefix(".text(\""), let end = rest.dropFirst(7).range(of: "\")") {
          let c = String(rest.dropFirst(7)[..<end.lowerBound])
          keys.append(c == " " ? "space" : c)
          rest = rest[end.upperBound...]
        } else if rest.hasPrefix(".") {
          let name = rest.dropFirst().prefix { $0.isLetter }
          keys.append(named[String(name)] ?? "unknown key .\(name)")
          rest = rest.dropFirst(1 + name.count)
        } else {
          rest = rest.dropFirst()
        }
      }
    }
    #expect(keys.count > 20, "could not read the key table: \(keys)")
    let keysSection = try #require(
      text.components(separatedBy: "\nKEYS\n").last?.components(separatedBy: "\nMOUSE\n").first)
    let words = Set(keysSection.split(whereSeparator: \.isWhitespace).map(String.init))
    for key in keys {
      #expect(words.contains(key), "the KEYS section does not list \(key)")
    }
    for mouse in ["Left click", "Wheel"] {
      #expect(text.contains(mouse), "the page does not describe the mouse: \(mouse)")
    }
  }

  @Test(.enabled(if: Xvfb.available))
  func xdgOpenShowsAGIFWhosePathHasSpacesInOurGifviewNotTheOneFirstOnPath() throws {
    let inst = try Installation.installed()
    let xvfb = try withUnblockedSignals { try Xvfb(width: 800, height: 600) }
    try withExtendedLifetime(xvfb) { try xdgOpen(inst, display: xvfb.display) }
  }

  private func xdgOpen(_ inst: Installation, display: String) throws {
    let dir = inst.root + "/a dir with spaces"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let path = dir + "/my anim.gif"
    #expect(FileManager.default.createFile(atPath: path, contents: Data(launcherAnimation(40, 30))))

    var env = inst.session
    env["DISPLAY"] = display
    let open = try withUnblockedSignals {
      try RunningProcess("/usr/bin/env", environmentArguments(env) + ["xdg-open", path])
    }
    defer { if open.process.isRunning { open.process.terminate() } }
    let probe = try WindowProbe(display: display)
    // xdg-open waits for the viewer; the viewer is found by its WM_CLASS.
    let found = probe.waitForWindow(withClass: "Gifview", timeoutMS: scaledMS(30_000))
    let window = try #require(found, "no gifview window; xdg-open said: \(open.stdout) \(open.stderr)")
    let pid = probe.property(window, "_NET_WM_PID")?.longs.first.map { pid_t($0) }
    defer {
      if let pid, kill(pid, 0) == 0 { kill(pid, SIGTERM) }
    }
    // It is the installed gifview that xdg-open started, with the path as one argument,
    // and not the decoy that comes first on PATH.
    #expect(!FileManager.default.fileExists(atPath: inst.decoyRanMarker), "xdg-open ran the decoy gifview")
    if let pid {
      let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
      #expect(exe == inst.prefix + "/bin/gifview")
    } else {
      Issue.record("the window has no _NET_WM_PID")
    }
    #expect(probe.string(window, "_NET_WM_NAME") == "my anim.gif — gifview")
    // The installed binary finds its icon under PREFIX/share/icons (relative to itself);
    // the property is written in pieces, so wait for all of it.
    _ = eventually { (probe.property(window, "_NET_WM_ICON")?.longs.count ?? 0) > 256 * 256 }
    let icon = probe.property(window, "_NET_WM_ICON")?.longs ?? []
    #expect(icon.prefix(2) == [16, 16] && icon.count > 256 * 256, "the installed gifview has no full icon")
    let want = launcherFrame(40, 30, shift: 0)
    #expect(eventually(timeout: 10) { probe.pixels(window)?.pixels == want }, "the window does not show frame 0")

    probe.sendKey(window, keysym: WindowProbe.keyQ)
    #expect(open.wait(timeout: 10) == 0, "xdg-open: \(open.stderr)")
  }

  /// Last (a serialized suite runs in source order): removes the shared installation.
  @Test func uninstallRemovesExactlyWhatInstallAdded() throws {
    let inst = try Installation.installed()
    let r = try runCommand(
      ["make", "-C", repositoryRoot.path, "uninstall", "PREFIX=\(inst.prefix)"], environment: inst.makeEnvironment)
    #expect(r.status == 0, "make uninstall: \(r.output)")

    // Only the bystanders and their directories are left.
    var expected: Set<String> = []
    for path in Installation.bystanders.keys {
      var p = path
      while !p.isEmpty {
        expected.insert(p)
        p = (p as NSString).deletingLastPathComponent
      }
    }
    #expect(tree(inst.prefix) == expected, "left behind: \(tree(inst.prefix).subtracting(expected).sorted())")
    for (path, text) in Installation.bystanders {
      #expect((try? String(contentsOfFile: inst.prefix + "/" + path, encoding: .utf8)) == text, "\(path) changed")
    }
    // The user's image/gif default is gone again, and the rest of the list is as it was.
    #expect((try? String(contentsOfFile: inst.mimeappsList, encoding: .utf8)) == Installation.mimeappsBefore)
    let q = try runCommand(["xdg-mime", "query", "default", "image/gif"], environment: inst.session)
    #expect(!q.stdout.contains("gifview"), "xdg-mime still answers \(q.stdout)")

    // A second uninstall finds nothing to do and says so.
    let again = try runCommand(
      ["make", "-C", repositoryRoot.path, "uninstall", "PREFIX=\(inst.prefix)"], environment: inst.makeEnvironment)
    #expect(again.status != 0 && again.stderr.contains("no gifview install manifest"), "\(again.output)")
    try? FileManager.default.removeItem(atPath: inst.root)
    // SwiftPM's lock files for the temporary HOME, named after its path.
    let tmp = FileManager.default.temporaryDirectory.path
    let locks = "_" + inst.root.dropFirst().replacingOccurrences(of: "/", with: "_")
    for name in (try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? [] where name.hasPrefix(locks) {
      try? FileManager.default.removeItem(atPath: tmp + "/" + name)
    }
  }
}

// MARK: - What launchers pass (the debug binary: no installation needed)

private let launcherPalette: [UInt8] = [255, 0, 0, 0, 200, 0, 0, 0, 255, 250, 250, 250]

private func launcherIndices(_ w: Int, _ h: Int, shift: Int) -> [UInt8] {
  (0..<(w * h)).map { i in UInt8(((i / w >= h / 2 ? 2 : 0) + (i % w >= w / 2 ? 1 : 0) + shift) % 4) }
}

/// Two opaque full frames of four exact colours; frame 0 stays 10 s.
private func launcherAnimation(_ w: Int, _ h: Int) -> [UInt8] {
  var b = GIFBuilder(width: w, height: h, globalPalette: launcherPalette)
  b.loop(0)
  for k in 0..<2 {
    b.control(delayCS: 1000)
    b.image(width: w, height: h, indices: launcherIndices(w, h, shift: k), minimumCodeSize: 2)
  }
  b.trailer()
  return b.bytes
}

/// Frame `shift` as 0x00RRGGBB.
private func launcherFrame(_ w: Int, _ h: Int, shift: Int) -> [UInt32] {
  launcherIndices(w, h, shift: shift).map { i in
    let p = Int(i) * 3
    return UInt32(launcherPalette[p]) << 16 | UInt32(launcherPalette[p + 1]) << 8 | UInt32(launcherPalette[p + 2])
  }
}

/// A path as a file:// URL: every byte but unreserved ones and "/" percent-encoded.
private func fileURL(_ path: String, host: String = "") -> String {
  var s = "file://" + host
  for byte in path.utf8 {
    let c = Character(Unicode.Scalar(byte))
    if byte < 0x80 && (c.isLetter || c.isNumber || "/-._~".contains(c)) {
      s.append(c)
    } else {
      s += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
    }
  }
  return s
}

extension String {
  fileprivate func leftPadded(to n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}

@Suite("Launcher arguments")
struct LauncherArgumentTests {
  @Test func percentEncodedFileURLsAndPlainPathsAreSourcesInOrder() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "gifview-launch-\(UUID().uuidString.prefix(8))/a b"
    ).path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: (dir as NSString).deletingLastPathComponent) }
    let paths = [dir + "/c d.gif", dir + "/é #1%.gif", dir + "/plain path.gif"]
    let sizes = [(40, 30), (12, 8), (6, 4)]
    for (path, size) in zip(paths, sizes) {
      _ = FileManager.default.createFile(atPath: path, contents: Data(launcherAnimation(size.0, size.1)))
    }
    // What a file manager passes for %U: file:// URLs (one with a host of localhost), and
    // what a shell passes: a plain path with a space.
    let arguments = [fileURL(paths[0]), fileURL(paths[1], host: "localhost"), paths[2]]
    #expect(arguments[0].hasSuffix("/a%20b/c%20d.gif"))
    let p = try withUnblockedSignals { try RunningProcess(gifviewBinary, ["--info"] + arguments) }
    let status = p.wait(timeout: 20)
    #expect(status == 0, "gifview --info: \(p.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(p.stdout.utf8))
    let infos = try #require(json as? [[String: Any]], "not an array: \(p.stdout)")
    #expect(infos.map { $0["source"] as? String } == paths.map { Optional($0) })
    #expect(infos.map { $0["width"] as? Int } == sizes.map { Optional($0.0) })
    #expect(infos.map { $0["height"] as? Int } == sizes.map { Optional($0.1) })
    #expect(infos.map { $0["frame_count"] as? Int } == [2, 2, 2])
  }

  @Test func anHTTPURLIsFetchedNotRefusedAsAnArgument() throws {
    // Nothing listens on the discard port: a load error (status 1), not a usage error (2).
    let url = "http://127.0.0.1:9/anim.gif"
    let p = try withUnblockedSignals {
      try RunningProcess(
        gifviewBinary, ["--info", "--no-cache", "--timeout", "10", url],
        environment: ["no_proxy": "*", "NO_PROXY": "*"])
    }
    #expect(p.wait(timeout: 30) == 1)
    #expect(p.stderr.hasPrefix("gifview: error: \(url): "), "\(p.stderr)")
  }
}
