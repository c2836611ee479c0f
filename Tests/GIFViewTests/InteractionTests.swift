import Foundation
import GIFTestSupport
import Testing
import X11Window

let interactionTestsXvfb: Xvfb? = try? Xvfb()

/// 256 distinct colours: index i is (i, 255 − i, (i · 37) mod 256).
private let rainbow: [UInt8] = (0..<256).flatMap { (i: Int) -> [UInt8] in
  [UInt8(i), UInt8(255 - i), UInt8(i * 37 % 256)]
}

/// A 64×32 still whose pixel (x, y) has index (x + 7y) mod 256: every window pixel tells
/// which image pixel it shows.
private func map() -> [UInt8] {
  var b = GIFBuilder(width: 64, height: 32, globalPalette: rainbow)
  let indices = (0..<(64 * 32)).map { (i: Int) -> UInt8 in UInt8((i % 64 + 7 * (i / 64)) % 256) }
  b.image(width: 64, height: 32, indices: indices)
  b.trailer()
  return b.bytes
}

private func colour(x: Int, y: Int) -> UInt32 { rgb(rainbow, (x + 7 * y) % 256) }

/// The 32×16 window at 1:1 showing the image from (x0, y0).
private func crop(x0: Int, y0: Int) -> [UInt32] {
  (0..<(32 * 16)).map { colour(x: x0 + $0 % 32, y: y0 + $0 / 32) }
}

@Suite("Pan, zoom at the pointer, keys by keysym (DESIGN §5)", .enabled(if: Xvfb.available), .serialized)
struct InteractionTests {
  private func viewer() throws -> Viewer {
    try Viewer(
      [temporaryFile("map.gif", map()), "--geometry", "32x16", "--actual"], on: interactionTestsXvfb)
  }

  @Test func dragPansThePictureByThePointersMovement() throws {
    let v = try viewer()
    // 1:1, centred: window (0, 0) shows image (16, 8).
    #expect(v.waitForPixels(crop(x0: 16, y0: 8)))
    v.probe.sendDrag(v.window, from: (10, 10), to: (15, 13))
    #expect(v.waitForPixels(crop(x0: 11, y0: 5)), "the image follows the pointer by (5, 3)")
    // Never past the image's edge: a long drag stops at the left/top border.
    v.probe.sendDrag(v.window, from: (0, 0), to: (30, 15))
    #expect(v.waitForPixels(crop(x0: 0, y0: 0)))
    // A drag is not a click: the still is not paused by it, and a click still toggles.
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 0)
  }

  @Test func hjklAndShiftArrowsPanByAnEighthOfTheView() throws {
    let v = try viewer()
    #expect(v.waitForPixels(crop(x0: 16, y0: 8)))
    v.key(0x6c)  // l: 32 / 8 = 4 pixels further right
    #expect(v.waitForPixels(crop(x0: 20, y0: 8)))
    v.key(0x6a)  // j: 16 / 8 = 2 pixels further down
    #expect(v.waitForPixels(crop(x0: 20, y0: 10)))
    v.probe.sendKey(v.window, keysym: 0xff51, state: WindowProbe.shiftMask)  // Shift+Left
    #expect(v.waitForPixels(crop(x0: 16, y0: 10)))
    v.key(0x6b)  // k
    v.key(0x68)  // h
    #expect(v.waitForPixels(crop(x0: 12, y0: 8)))
  }

  @Test func theWheelZoomsKeepingTheImagePointUnderThePointer() throws {
    // 8×8 blocks of one colour each (zooming blends only at block edges): block (bx, by)
    // has index bx + 8·by.
    var b = GIFBuilder(width: 64, height: 32, globalPalette: rainbow)
    b.image(
      width: 64, height: 32, indices: (0..<(64 * 32)).map { (i: Int) -> UInt8 in UInt8(i % 64 / 8 + 8 * (i / 64 / 8)) })
    b.trailer()
    let v = try Viewer(
      [temporaryFile("blocks.gif", b.bytes), "--geometry", "32x16", "--actual"], on: interactionTestsXvfb)
    // 1:1 centred: window (12, 4) is over image (28, 12), the middle of block (3, 1).
    let block = rgb(rainbow, 3 + 8)
    #expect(eventually { v.probe.pixel(v.window, x: 12, y: 4) == block })
    let corner = v.probe.pixel(v.window, x: 31, y: 15)  // image (47, 23): block (5, 2)
    for _ in 0..<3 { v.probe.sendButton(v.window, button: 4, x: 12, y: 4) }
    // ×1.95: the corner shows block (4, 2) now; the pointer's point stays put.
    #expect(eventually { v.probe.pixel(v.window, x: 31, y: 15) == rgb(rainbow, 4 + 16) }, "no zoom happened")
    #expect(corner == rgb(rainbow, 5 + 16))
    for (dx, dy) in [(0, 0), (-3, -3), (3, 3), (-3, 3), (3, -3)] {
      #expect(v.probe.pixel(v.window, x: 12 + dx, y: 4 + dy) == block, "(\(12 + dx), \(4 + dy)) left block (3, 1)")
    }
  }

  @Test func lettersWorkWithCapsLockOn() throws {
    let v = try viewer()
    #expect(v.waitForPixels(crop(x0: 16, y0: 8)))
    v.probe.sendKey(v.window, keysym: 0x6c, state: WindowProbe.lockMask)  // l with Caps Lock
    #expect(v.waitForPixels(crop(x0: 20, y0: 8)))
    v.probe.sendKey(v.window, keysym: WindowProbe.keyQ, state: WindowProbe.lockMask)
    #expect(v.process.wait(timeout: 3) == 0)
  }

  @Test func lettersWorkInANonLatinLayout() throws {
    let xvfb = try Xvfb(width: 320, height: 240)
    // English and Russian; the second group active makes the q key type й.
    let layout = try runTool(["setxkbmap", "-display", xvfb.display, "-layout", "us,ru"])
    try #require(layout == 0, "setxkbmap failed")
    let v = try Viewer([temporaryFile("map.gif", map()), "--geometry", "32x16", "--actual"], on: xvfb)
    #expect(v.waitForPixels(crop(x0: 16, y0: 8)))
    v.probe.sendKey(v.window, keysym: 0x6c, state: WindowProbe.group2)  // л on the l key
    #expect(v.waitForPixels(crop(x0: 20, y0: 8)))
    v.probe.sendKey(v.window, keysym: WindowProbe.keyQ, state: WindowProbe.group2)
    #expect(v.process.wait(timeout: 3) == 0)
  }

  @Test func aHugeGeometryIsCappedToTheScreen() throws {
    let v = try Viewer(
      [temporaryFile("map.gif", map()), "--geometry", "32767x32767", "--actual"], on: interactionTestsXvfb)
    #expect(eventually { v.size == (1280, 1024) }, "window \(v.size) on a 1280x1024 screen")
    // Centred at 1:1 in the capped window: its middle shows the image's middle.
    #expect(eventually { v.probe.pixel(v.window, x: 640, y: 512) == colour(x: 32, y: 16) })
  }

  @Test func questionMarkShowsTheKeyTableAndHidesItAgain() throws {
    let v = try Viewer([temporaryFile("map.gif", map()), "--geometry", "400x300"], on: interactionTestsXvfb)
    // The picture drawn (the window maps before its first frame: black until then).
    #expect(eventually { v.pixels.count == 400 * 300 && v.pixels.contains { $0 != 0 } })
    let plain = v.pixels
    func cardPixels() -> Int { v.pixels.filter { $0 == 0x18181C }.count }
    #expect(cardPixels() == 0)
    v.probe.sendKey(v.window, keysym: 0x3f)  // ? (Shift+/)
    #expect(eventually { cardPixels() > 20_000 }, "no help card: \(cardPixels()) card pixels")
    v.probe.sendKey(v.window, keysym: 0x3f)
    #expect(eventually { v.pixels == plain }, "the card did not go")
  }
}

/// Runs a command-line tool; answers its exit status.
private func runTool(_ arguments: [String]) throws -> Int32 {
  let p = Process()
  p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  p.arguments = arguments
  p.standardOutput = FileHandle.nullDevice
  p.standardError = FileHandle.nullDevice
  try p.run()
  p.waitUntilExit()
  return p.terminationStatus
}
