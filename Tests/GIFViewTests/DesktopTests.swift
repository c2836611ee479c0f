import Foundation
import GIFTestSupport
import PNGCodec
import Testing
import X11Window

#if canImport(Glibc)
  import Glibc
#endif

// DESIGN §5's identity for the desktop (_NET_WM_ICON, WM_HINTS, WM_CLIENT_MACHINE), the
// window's centre kept on `n`/`p`, `s` saving the shown frame, and a single missing file.

let desktopTestsXvfb: Xvfb? = try? Xvfb()

private let palette: [UInt8] = [255, 0, 0, 0, 200, 0, 0, 0, 255, 250, 250, 250]

/// A w×h still of palette index `index`.
private func solid(_ w: Int, _ h: Int, index: UInt8) -> [UInt8] {
  var b = GIFBuilder(width: w, height: h, globalPalette: palette)
  b.image(width: w, height: h, indices: [UInt8](repeating: index, count: w * h), minimumCodeSize: 2)
  b.trailer()
  return b.bytes
}

/// Two 10 s frames: frame 0 a pattern with transparent pixels (index 3), frame 1 opaque.
private func twoFrames(_ w: Int, _ h: Int) -> [UInt8] {
  var b = GIFBuilder(width: w, height: h, globalPalette: palette)
  b.loop(0)
  b.control(delayCS: 1000, transparent: 3)
  b.image(width: w, height: h, indices: frameIndices(w, h, 0), minimumCodeSize: 2)
  b.control(delayCS: 1000)
  b.image(width: w, height: h, indices: frameIndices(w, h, 1), minimumCodeSize: 2)
  b.trailer()
  return b.bytes
}

private func frameIndices(_ w: Int, _ h: Int, _ k: Int) -> [UInt8] {
  (0..<(w * h)).map { i in UInt8((i % w + i / w + k) % 4) }
}

/// Frame `k` as the PNG must hold it: RGBA, straight alpha, a transparent pixel 0,0,0,0.
private func expectedRGBA(_ w: Int, _ h: Int, _ k: Int) -> [UInt8] {
  frameIndices(w, h, k).flatMap { i -> [UInt8] in
    if k == 0 && i == 3 { return [0, 0, 0, 0] }
    let p = Int(i) * 3
    return [palette[p], palette[p + 1], palette[p + 2], 255]
  }
}

private func hostName() -> String {
  var buffer = [CChar](repeating: 0, count: 256)
  gethostname(&buffer, 255)
  return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

@Suite("The window on the desktop: icon, hints, centre, saving (DESIGN §5)", .enabled(if: Xvfb.available), .serialized)
struct DesktopTests {
  @Test func theWindowCarriesTheAppIconAtSeveralSizesWMHintsAndTheHostName() throws {
    let v = try Viewer([temporaryFile("icon.gif", solid(16, 8, index: 1))], on: desktopTestsXvfb)
    // The icon is set once the first turn has drawn, in pieces: wait for the whole of it.
    func complete(_ longs: [Int]) -> Bool {
      var rest = longs[...]
      var sizes: [Int] = []
      while rest.count >= 2 {
        let (w, h) = (rest[rest.startIndex], rest[rest.startIndex + 1])
        guard w > 0, h > 0, rest.count >= 2 + w * h else { return false }
        sizes.append(w)
        rest = rest.dropFirst(2 + w * h)
      }
      return rest.isEmpty && sizes.contains(256)
    }
    #expect(eventually { complete(v.probe.property(v.window, "_NET_WM_ICON")?.longs ?? []) })
    let icon = try #require(v.probe.property(v.window, "_NET_WM_ICON"), "no _NET_WM_ICON")
    #expect(icon.type == "CARDINAL")
    // Width, height, then width × height pixels, for each size in turn.
    var sizes: [Int] = []
    var rest = icon.longs[...]
    while rest.count >= 2 {
      let (w, h) = (rest[rest.startIndex], rest[rest.startIndex + 1])
      try #require(w > 0 && h > 0 && rest.count >= 2 + w * h, "a bad icon record: \(w)x\(h) with \(rest.count) left")
      // Xlib hands format-32 items over as C longs, sign-extended: the low 32 bits are ARGB.
      let pixels = rest.dropFirst(2).prefix(w * h).map { UInt32(truncatingIfNeeded: $0) }
      #expect(w == h, "a \(w)x\(h) icon")
      #expect(pixels.contains { $0 >> 24 == 255 }, "the \(w) px icon has no opaque pixel")
      #expect(pixels.contains { $0 >> 24 == 0 }, "the \(w) px icon has no transparent corner")
      #expect(Set(pixels).count > 3, "the \(w) px icon is nearly blank")
      sizes.append(w)
      rest = rest.dropFirst(2 + w * h)
    }
    #expect(rest.isEmpty)
    #expect(sizes.count >= 4 && sizes.min() == 16 && sizes.max() == 256, "sizes: \(sizes)")
    #expect(Set(sizes).count == sizes.count, "a size twice: \(sizes)")

    // WM_HINTS: flags, input, initial_state, icon_pixmap, icon_window, x, y, icon_mask, group.
    #expect(eventually { (v.probe.property(v.window, "WM_HINTS")?.longs.first ?? 0) & 4 != 0 })
    let hints = try #require(v.probe.property(v.window, "WM_HINTS")?.longs, "no WM_HINTS")
    try #require(hints.count >= 8)
    let (inputHint, iconPixmapHint, iconMaskHint) = (1, 4, 32)  // Xutil.h
    #expect(hints[0] & inputHint != 0 && hints[1] == 1, "input is not True: \(hints)")
    #expect(hints[0] & iconPixmapHint != 0 && hints[3] != 0, "no icon pixmap: \(hints)")
    #expect(hints[0] & iconMaskHint != 0 && hints[7] != 0, "no icon mask: \(hints)")

    let machine = try #require(v.probe.property(v.window, "WM_CLIENT_MACHINE"))
    #expect(machine.type == "STRING")
    #expect(String(decoding: machine.bytes, as: UTF8.self) == hostName())
  }

  @Test func aBuildTreeWithItsOwnScratchPathStillFindsTheIcons() throws {
    // ROOT/.build/asan/TRIPLE/debug/gifview (swift build --scratch-path .build/asan) is four
    // directories below ROOT/Resources/icons.
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("gifview-tree-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    let bin = root.appendingPathComponent(".build/asan/x86_64-unknown-linux-gnu/debug")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("Resources"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      at: root.appendingPathComponent("Resources/icons"),
      withDestinationURL: repositoryRoot.appendingPathComponent("Resources/icons"))
    let binary = bin.appendingPathComponent("gifview").path
    try FileManager.default.copyItem(atPath: gifviewBinary, toPath: binary)
    let v = try Viewer([temporaryFile("tree.gif", solid(16, 8, index: 1))], binary: binary, on: desktopTestsXvfb)
    #expect(eventually { (v.probe.property(v.window, "_NET_WM_ICON")?.longs.count ?? 0) >= 2 + 256 * 256 })
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 0)
  }

  @Test func withoutItsIconFilesTheWindowOpensQuietlyWithoutAnIcon() throws {
    // The binary alone in a directory of its own: no share/icons, no Resources beside it.
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gifview-noicon-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("bin"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let binary = dir.appendingPathComponent("bin/gifview").path
    try FileManager.default.copyItem(atPath: gifviewBinary, toPath: binary)
    let v = try Viewer([temporaryFile("plain.gif", solid(16, 8, index: 1))], binary: binary, on: desktopTestsXvfb)
    #expect(eventually { v.pixels.first == rgb(palette, 1) })
    pause(0.2)  // past the turn that would set an icon
    #expect(v.probe.property(v.window, "_NET_WM_ICON") == nil)
    let hints = try #require(v.probe.property(v.window, "WM_HINTS")?.longs)
    #expect(hints.first == 1 && hints[1] == 1, "input only: \(hints)")
    #expect(v.probe.string(v.window, "WM_CLIENT_MACHINE") == hostName())
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 0)
    #expect(v.process.stderr.isEmpty, "stderr: \(v.process.stderr)")
  }

  @Test func nAndPKeepTheWindowsCentre() throws {
    let a = temporaryFile("wide.gif", solid(200, 100, index: 0))
    let b = temporaryFile("small.gif", solid(61, 41, index: 2))
    let v = try Viewer([a, b], on: desktopTestsXvfb)
    #expect(eventually { v.size == (200, 100) })
    v.probe.move(v.window, x: 400, y: 300)
    #expect(eventually { v.probe.position(v.window) == (400, 300) })
    func centre() -> (Double, Double) {
      let (p, s) = (v.probe.position(v.window), v.size)
      return (Double(p.x) + Double(s.width) / 2, Double(p.y) + Double(s.height) / 2)
    }
    let before = centre()
    #expect(before == (500, 350))
    v.key(WindowProbe.keyN)
    #expect(eventually { v.size == (61, 41) }, "n did not resize: \(v.size)")
    let after = centre()
    #expect(abs(after.0 - before.0) <= 1 && abs(after.1 - before.1) <= 1, "centre \(before) became \(after)")
    v.key(WindowProbe.keyP)
    #expect(eventually { v.size == (200, 100) })
    #expect(eventually { v.probe.position(v.window) == (400, 300) }, "back at \(v.probe.position(v.window))")
  }

  @Test func sSavesTheShownFrameAsAPNGNextToTheFileNeverOverwritingAndPrintsThePath() throws {
    let (w, h) = (13, 7)
    let path = temporaryFile("anim.gif", twoFrames(w, h))
    let dir = (path as NSString).deletingLastPathComponent
    let v = try Viewer(["--paused", path], on: desktopTestsXvfb)
    // Frame 0 on show (its pixel 0 is palette 0): the window takes the size from the
    // header before any frame is decoded.
    #expect(eventually { v.pixels.count == w * h && v.pixels.first == rgb(palette, 0) }, "frame 0 not shown")
    v.key(WindowProbe.keyPeriod)  // frame 1, opaque
    let frame1 = expectedRGBA(w, h, 1)
    #expect(
      eventually { v.pixels.first == UInt32(frame1[0]) << 16 | UInt32(frame1[1]) << 8 | UInt32(frame1[2]) },
      "frame 1 not shown")
    v.key(WindowProbe.keyS)
    let first = dir + "/anim-frame-0001.png"
    #expect(eventually { v.process.stdout == first + "\n" }, "stdout: \(v.process.stdout)")
    v.key(WindowProbe.keyS)
    v.key(WindowProbe.keyS)
    let lines = [first, dir + "/anim-frame-0001-1.png", dir + "/anim-frame-0001-2.png"]
    #expect(eventually { v.process.stdout == lines.joined(separator: "\n") + "\n" }, "stdout: \(v.process.stdout)")
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 0)
    #expect(v.process.stderr.isEmpty, "stderr: \(v.process.stderr)")
    for file in lines {
      let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
      let image = try PNG.decode(bytes)
      #expect(image.width == w && image.height == h)
      #expect(image.rgba == frame1, "\(file) is not frame 1")
      let independent = try #require(decodePNGWithPython(bytes), "python3 could not read \(file)")
      #expect(independent.rgba == frame1)
    }
  }

  @Test func withNoDirectoryOfItsOwnTheFrameGoesToXDGPicturesDir() throws {
    // stdin has no directory: $XDG_PICTURES_DIR (created when missing); frame 0 has
    // transparent pixels, saved as 0,0,0,0.
    let (w, h) = (9, 5)
    let pictures = FileManager.default.temporaryDirectory.appendingPathComponent(
      "gifview-pictures-\(UUID().uuidString)"
    )
    .appendingPathComponent("Pictures").path
    defer { try? FileManager.default.removeItem(atPath: (pictures as NSString).deletingLastPathComponent) }
    let v = try Viewer(
      ["--paused", "-"], environment: ["XDG_PICTURES_DIR": pictures], stdin: Data(twoFrames(w, h)),
      on: desktopTestsXvfb)
    #expect(eventually { v.pixels.count == w * h && v.pixels.first == rgb(palette, 0) }, "frame 0 not shown")
    v.key(WindowProbe.keyS)
    let saved = pictures + "/stdin-frame-0000.png"
    #expect(eventually { v.process.stdout == saved + "\n" }, "stdout: \(v.process.stdout) stderr: \(v.process.stderr)")
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 0)
    let image = try PNG.decode(try [UInt8](Data(contentsOf: URL(fileURLWithPath: saved))))
    #expect(image.rgba == expectedRGBA(w, h, 0))
  }

  @Test func aSingleMissingFileExits1AtOnceWithoutAWindow() throws {
    let xvfb = try #require(desktopTestsXvfb)
    let missing = "/nonexistent-\(UUID().uuidString)/gone.gif"
    let started = Date()
    let p = try RunningProcess(gifviewBinary, [missing], environment: ["DISPLAY": xvfb.display])
    let pid = p.process.processIdentifier
    let probe = try WindowProbe(display: xvfb.display)
    #expect(p.wait(timeout: 1) == 1, "still running or not 1 after a second")
    #expect(Date().timeIntervalSince(started) < scaled(1.5))
    #expect(p.stderr == "gifview: error: \(missing): No such file or directory\n", "stderr: \(p.stderr)")
    #expect(probe.waitForWindow(pid: pid, timeoutMS: scaledMS(300)) == nil, "a window appeared")
    withExtendedLifetime(xvfb) {}
  }
}
