import Foundation
import GIFTestSupport
import GIFView
import PNGCodec
import Testing
import X11Window

#if canImport(Glibc)
  import Glibc
#endif

/// Source i of the grid tests: a 64×48 animation of two frames (10 cs each) in colours
/// that name it, `first(i)` then `second(i)`.
private func first(_ i: Int) -> UInt32 { UInt32(40 + i * 3) << 16 | UInt32(200 - i * 2) << 8 | 0x10 }
private func second(_ i: Int) -> UInt32 { first(i) ^ 0x00FF_FF00 & 0x7F7F00 | 0x000080 }

private func tileGIF(_ i: Int, frames: Int = 2) -> [UInt8] {
  func bytes(_ c: UInt32) -> [UInt8] { [UInt8(c >> 16 & 0xFF), UInt8(c >> 8 & 0xFF), UInt8(c & 0xFF)] }
  var b = GIFBuilder(width: 64, height: 48, globalPalette: bytes(first(i)) + bytes(second(i)))
  b.loop(0)
  for k in 0..<frames {
    b.control(delayCS: 10)
    b.image(width: 64, height: 48, indices: [UInt8](repeating: UInt8(k % 2), count: 64 * 48), minimumCodeSize: 2)
  }
  b.trailer()
  return b.bytes
}

/// The grid's geometry for a 400×300 window of 64×48 tiles (as gifview lays it out: a
/// 10-pixel scroll bar, 18-pixel names, 8-pixel gaps): 5 columns, rows 74 pixels apart.
private func layout(count: Int) -> GridLayout {
  GridLayout(
    tileWidth: 64, tileHeight: 48, labelHeight: 18, gap: 8, viewportWidth: 390, viewportHeight: 300, count: count)
}

private let keyDown: UInt = 0xff54
private let keyReturn: UInt = 0xff0d
private let keyEnd: UInt = 0xff57
private let keyPageDown: UInt = 0xff56
private let gridBackground: UInt32 = 0x1A1B1D
private let accent: UInt32 = 0x3D8BFD

/// Tile i's picture shows source i (either of its frames) at (dx, dy) from its corner.
private func showsSource(_ p: [UInt32], _ i: Int, offset: Int, count: Int, dx: Int = 2, dy: Int = 2) -> Bool {
  let r = layout(count: count).pictureRect(i, offset: offset)
  let y = r.y0 + dy
  let x = r.x0 + dx
  guard y >= 0, y < 300, p.count == 400 * 300 else { return false }
  return p[y * 400 + x] == first(i) || p[y * 400 + x] == second(i)
}

@Suite("Grid (--grid): scrolling, virtualized", .enabled(if: Xvfb.available), .serialized)
struct GridWindowTests {
  private static func directory(count: Int) -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gifview-grid-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    for i in 0..<count {
      _ = FileManager.default.createFile(
        atPath: dir.appendingPathComponent("\(i).gif").path, contents: Data(tileGIF(i)))
    }
    return dir.path
  }

  @Test func tilesKeepTheTileSizeInNaturalOrderAndPlay() throws {
    let dir = Self.directory(count: 12)
    let v = try Viewer(["--grid", "--tile", "64x48", "--geometry", "400x300", dir], on: gridTestsXvfb)
    #expect(v.probe.string(v.window, "_NET_WM_NAME") == "12 GIFs — gifview")
    let g = layout(count: 12)
    // Every tile is the image 1:1 (64×48, the tile's size), each at its place: corner to
    // corner, with the grid's background just outside.
    #expect(
      eventually {
        let p = v.pixels
        return (0..<12).allSatisfy { i in
          showsSource(p, i, offset: 0, count: 12) && showsSource(p, i, offset: 0, count: 12, dx: 63, dy: 47)
        }
      }, "stderr: \(v.process.stderr)")
    let p = v.pixels
    let r = g.pictureRect(6, offset: 0)
    #expect(p[(r.y0 + 10) * 400 + r.x1 + 1] == gridBackground, "nothing beyond the tile's width")
    // They play: tile 7 shows both of its frames.
    let t = g.pictureRect(7, offset: 0)
    var seen: Set<UInt32> = []
    _ = eventually {
      if let c = v.probe.pixel(v.window, x: t.x0 + 5, y: t.y0 + 5) { seen.insert(c) }
      return seen.isSuperset(of: [first(7), second(7)])
    }
    #expect(seen.isSuperset(of: [first(7), second(7)]), "seen \(seen.map { String($0, radix: 16) })")
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 0)
  }

  @Test func onlyTheTilesInViewAndOneRowAheadLoadAtMostSixAtOnceAndScrollingLoadsTheRest() throws {
    let count = 60
    let gifs = (0..<count).map { tileGIF($0) }
    // Each answer takes 150 ms: loads overlap, and the queue shows.
    let server = try ScriptedHTTPServer { path, _ in
      guard let i = Int(path.dropFirst().prefix { $0.isNumber }), i < count else {
        return [.send(ScriptedHTTPServer.header(404, "Not Found", length: 0))]
      }
      return [.sleep(0.15), .send(ScriptedHTTPServer.ok(gifs[i]))]
    }
    let urls = (0..<count).map { server.url("/\($0).gif") }
    let v = try Viewer(
      ["--grid", "--no-cache", "--tile", "64x48", "--geometry", "400x300"] + urls, on: gridTestsXvfb)
    let g = layout(count: count)
    let live = g.liveRange(offset: 0)
    #expect(live == 0..<25)
    #expect(
      eventually(timeout: 15) { live.allSatisfy { showsSource(v.pixels, $0, offset: 0, count: count) || $0 >= 20 } },
      "stderr: \(v.process.stderr)")
    #expect(eventually(timeout: 10) { server.requestedPaths.count == live.count })
    pause(0.3)
    let asked = server.requestedPaths
    #expect(Set(asked) == Set(live.map { "/\($0).gif" }), "asked for \(asked)")
    #expect(asked.prefix(6).sorted() == (0..<6).map { "/\($0).gif" }.sorted(), "the queue runs in order")
    #expect(server.peakConnections <= 6 && server.peakConnections >= 5, "peak \(server.peakConnections)")
    // Tiles out of view have no windows: names and views of the live tiles only.
    #expect(v.probe.children(v.window).count <= 2 * live.count + 2)

    // End: the last tiles load and play; the first ones are gone.
    v.key(keyEnd)
    let end = g.maxOffset
    #expect(
      eventually(timeout: 15) { showsSource(v.pixels, count - 1, offset: end, count: count) },
      "stderr: \(v.process.stderr)")
    let lastTile = g.pictureRect(count - 1, offset: end)
    var seen: Set<UInt32> = []
    _ = eventually {
      if let c = v.probe.pixel(v.window, x: lastTile.x0 + 5, y: lastTile.y0 + 5) { seen.insert(c) }
      return seen.count >= 2
    }
    #expect(seen == [first(count - 1), second(count - 1)], "the last tile plays")
    #expect(server.requestedPaths.contains("/\(count - 1).gif"))
    #expect(!server.requestedPaths.contains("/30.gif"), "a tile never in view was loaded")
    #expect(v.probe.children(v.window).count <= 2 * g.liveRange(offset: end).count + 2)
    #expect(server.peakConnections <= 6)
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 0)
  }

  @Test func enterOpensTheSelectedTileAndEscapeReturnsToTheSamePlace() throws {
    let count = 40
    let dir = Self.directory(count: count)
    let v = try Viewer(["--grid", "--no-fade", "--tile", "64x48", "--geometry", "400x300", dir], on: gridTestsXvfb)
    let g = layout(count: count)
    #expect(eventually { showsSource(v.pixels, 0, offset: 0, count: count) })
    // PageDown scrolls a page and selects a page further; Down one row more.
    v.key(keyPageDown)
    v.key(keyDown)
    let target = g.moved(g.moved(0, .pageDown), .down)
    let offset = g.offset(revealing: target, from: g.offset(revealing: g.moved(0, .pageDown), from: g.pageStep))
    #expect(target == 25)
    #expect(eventually { showsSource(v.pixels, target, offset: offset, count: count) })
    let ring = g.pictureRect(target, offset: offset)
    #expect(eventually { v.probe.pixel(v.window, x: ring.x0 - 2, y: ring.y0 + 10) == accent }, "the focus ring")
    v.key(keyReturn)
    #expect(
      eventually { v.probe.string(v.window, "_NET_WM_NAME") == "\(target).gif (\(target + 1)/\(count)) — gifview" })
    // The single view: the tile's source fit to the whole window.
    #expect(
      eventually {
        let c = v.probe.pixel(v.window, x: 200, y: 150)
        return c == first(target) || c == second(target)
      })
    // Single-view keys work there: space pauses, '.' steps.
    v.key(WindowProbe.keySpace)
    v.key(WindowProbe.keyEscape)
    #expect(eventually { v.probe.string(v.window, "_NET_WM_NAME") == "\(count) GIFs — gifview" })
    #expect(eventually { showsSource(v.pixels, target, offset: offset, count: count) }, "same scroll position")
    #expect(eventually { v.probe.pixel(v.window, x: ring.x0 - 2, y: ring.y0 + 10) == accent }, "same selection")
    // In the grid, Escape quits.
    v.key(WindowProbe.keyEscape)
    #expect(v.process.wait(timeout: 3) == 0)
  }

  @Test func aDoubleClickOpensATileTheScrollBarDragsAndGSwitchesViews() throws {
    let count = 40
    let dir = Self.directory(count: count)
    let v = try Viewer(["--grid", "--no-fade", "--tile", "64x48", "--geometry", "400x300", dir], on: gridTestsXvfb)
    let g = layout(count: count)
    #expect(eventually { showsSource(v.pixels, 0, offset: 0, count: count) })
    // Drag the thumb down by 60 pixels: the grid follows.
    let thumb = g.thumb(offset: 0, trackHeight: 300)
    v.probe.sendButtonPress(v.window, button: 1, x: 395, y: thumb.y + 5)
    v.probe.sendDrag(v.window, x: 395, y: thumb.y + 35)
    v.probe.sendDrag(v.window, x: 395, y: thumb.y + 65)
    v.probe.sendButtonRelease(v.window, button: 1, x: 395, y: thumb.y + 65)
    let dragged = g.offset(thumbY: thumb.y + 60, trackHeight: 300)
    #expect(dragged > 100)
    let tile = g.visibleRange(offset: dragged).lowerBound + g.columns  // a whole row in view
    #expect(
      eventually { showsSource(v.pixels, tile, offset: dragged, count: count) }, "dragged to offset \(dragged)")
    // A double-click on it opens it; `g` goes back to the grid, at the same place.
    let r = g.pictureRect(tile, offset: dragged)
    v.probe.sendButton(v.window, button: 1, x: r.x0 + 10, y: r.y0 + 10)
    v.probe.sendButton(v.window, button: 1, x: r.x0 + 10, y: r.y0 + 10)
    #expect(eventually { v.probe.string(v.window, "_NET_WM_NAME") == "\(tile).gif (\(tile + 1)/\(count)) — gifview" })
    v.key(0x67)  // g
    #expect(eventually { v.probe.string(v.window, "_NET_WM_NAME") == "\(count) GIFs — gifview" })
    #expect(eventually { showsSource(v.pixels, tile, offset: dragged, count: count) })
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 0)
  }

  @Test func sAndCtrlCInTheGridTakeTheSelectedTilesFrame() throws {
    let dir = Self.directory(count: 3)
    let v = try Viewer(["--grid", "--paused", "--tile", "64x48", "--geometry", "400x300", dir], on: gridTestsXvfb)
    #expect(eventually { (0..<3).allSatisfy { showsSource(v.pixels, $0, offset: 0, count: 3) } })
    v.probe.sendKey(v.window, keysym: 0xff53)  // Right: tile 1
    v.key(WindowProbe.keyPeriod)  // every tile steps to its frame 1
    let r = layout(count: 3).pictureRect(1, offset: 0)
    #expect(eventually { v.probe.pixel(v.window, x: r.x0 + 5, y: r.y0 + 5) == second(1) }, "tile 1 not at frame 1")
    v.key(WindowProbe.keyS)
    let saved = dir + "/1-frame-0001.png"
    #expect(eventually { v.process.stdout == saved + "\n" }, "stdout: \(v.process.stdout) stderr: \(v.process.stderr)")
    let c = second(1)
    let frame = (0..<(64 * 48)).flatMap { _ in [UInt8(c >> 16), UInt8(c >> 8 & 0xFF), UInt8(c & 0xFF), 255] }
    let image = try PNG.decode(try [UInt8](Data(contentsOf: URL(fileURLWithPath: saved))))
    #expect(image.width == 64 && image.height == 48)
    #expect(image.rgba == frame, "the PNG is not tile 1's frame 1")
    v.probe.sendKey(v.window, keysym: 0x63, state: WindowProbe.controlMask)  // Ctrl+c
    #expect(eventually { v.probe.selectionOwner() == v.window })
    let copied = try #require(v.probe.convertSelection(target: "image/png"))
    #expect(try PNG.decode(copied.bytes).rgba == frame)
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 0)
  }

  @Test func gSwitchesSeveralSourcesFromTheSingleViewToTheGrid() throws {
    let dir = Self.directory(count: 3)
    let v = try Viewer(
      ["--tile", "64x48", "--geometry", "400x300", dir + "/0.gif", dir + "/1.gif", dir + "/2.gif"], on: gridTestsXvfb)
    #expect(eventually { v.probe.string(v.window, "_NET_WM_NAME") == "0.gif (1/3) — gifview" })
    v.key(0x67)  // g
    #expect(eventually { v.probe.string(v.window, "_NET_WM_NAME") == "3 GIFs — gifview" })
    #expect(eventually { (0..<3).allSatisfy { showsSource(v.pixels, $0, offset: 0, count: 3, dx: 10, dy: 10) } })
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 0)
  }

  @Test func aFailingSourcesCardStaysInsideItsTile() throws {
    let dir = Self.directory(count: 3)
    let bad = temporaryFile(
      "a file whose name is long enough to spill out of any tile, not a GIF at all.gif", Array("hello\n".utf8))
    let v = try Viewer(
      ["--grid", "--tile", "64x48", "--geometry", "400x300", dir + "/0.gif", bad, dir + "/2.gif"], on: gridTestsXvfb)
    let g = layout(count: 3)
    #expect(
      eventually { showsSource(v.pixels, 0, offset: 0, count: 3) && showsSource(v.pixels, 2, offset: 0, count: 3) })
    #expect(eventually { v.process.stderr.contains("not a GIF file") })
    let r = g.pictureRect(1, offset: 0)
    // The card is drawn in the tile...
    #expect(
      eventually {
        let p = v.pixels
        return p[(r.y0 + 24) * 400 + r.x0 + 32] != gridBackground
      })
    pause(0.2)
    // ...and nothing of it outside: the gaps around the tile are the grid's background.
    let p = v.pixels
    for y in (r.y0 - 4)..<(r.y1 + 18) {
      #expect(p[y * 400 + r.x0 - 3] == gridBackground && p[y * 400 + r.x1 + 2] == gridBackground, "row \(y)")
    }
    for x in r.x0..<r.x1 { #expect(p[(r.y0 - 4) * 400 + x] == gridBackground, "column \(x)") }
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 1, "a failed source: exit 1")
  }

  @Test func aStreamedListAddsTilesBeforeStdinEnds() throws {
    guard let xvfb = gridTestsXvfb else { throw XvfbError.message("no Xvfb") }
    let dir = Self.directory(count: 3)
    let p = try RunningProcess(
      gifviewBinary, ["--grid", "--tile", "64x48", "--geometry", "400x300", "--list", "-"],
      environment: ["DISPLAY": xvfb.display], keepingStdinOpen: true)
    let probe = try WindowProbe(display: xvfb.display)
    try withExtendedLifetime(xvfb) {
      p.stdinWriter?.write(Data("\(dir)/0.gif\n\(dir)/1.gif\n".utf8))
      let w = try #require(
        probe.waitForWindow(pid: p.process.processIdentifier, timeoutMS: scaledMS(5000)), "stderr: \(p.stderr)")
      #expect(eventually { probe.string(w, "_NET_WM_NAME") == "2 GIFs — gifview" })
      #expect(eventually { showsSource(probe.pixels(w)?.pixels ?? [], 1, offset: 0, count: 2) })
      p.stdinWriter?.write(Data("\(dir)/2.gif\n".utf8))
      #expect(eventually { probe.string(w, "_NET_WM_NAME") == "3 GIFs — gifview" })
      #expect(eventually { showsSource(probe.pixels(w)?.pixels ?? [], 2, offset: 0, count: 3) })
      #expect(p.process.isRunning)
      try? p.stdinWriter?.close()
      probe.sendKey(w, keysym: WindowProbe.keyQ)
      #expect(p.wait(timeout: 3) == 0, "stderr: \(p.stderr)")
    }
  }

  @Test func aPipedListOfNamesInsteadOfAGIFPointsToListDash() throws {
    guard let xvfb = gridTestsXvfb else { throw XvfbError.message("no Xvfb") }
    let p = try RunningProcess(
      gifviewBinary, ["--geometry", "100x100"], environment: ["DISPLAY": xvfb.display],
      stdin: Data("a.gif\nb.gif\n".utf8))
    withExtendedLifetime(xvfb) {
      #expect(eventually { p.stderr.contains("gifview: error: -: not a GIF file") && p.stderr.contains("--list -") })
      p.process.terminate()
      _ = p.wait(timeout: 3)
    }
  }
}
