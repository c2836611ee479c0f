import Foundation
import GIFTestSupport
import PNGCodec
import Testing
import X11Window

#if canImport(Glibc)
  import Glibc
#endif

// DESIGN §5: Ctrl+c offers the shown frame on the CLIPBOARD as image/png (INCR when it
// is large), Ctrl+v opens the path or URL on it. A second client, the probe, is the
// requestor and the owner.

let clipboardTestsXvfb: Xvfb? = try? Xvfb()

private let palette: [UInt8] = [255, 0, 0, 0, 200, 0, 0, 0, 255, 250, 250, 250]
private let keyC: UInt = 0x63
private let keyV: UInt = 0x76

/// Two 10 s frames: frame 0 a pattern with transparent pixels (index 3), frame 1 opaque.
private func twoFrames(_ w: Int, _ h: Int) -> [UInt8] {
  var b = GIFBuilder(width: w, height: h, globalPalette: palette)
  b.loop(0)
  b.control(delayCS: 1000, transparent: 3)
  b.image(width: w, height: h, indices: pattern(w, h, 0), minimumCodeSize: 2)
  b.control(delayCS: 1000)
  b.image(width: w, height: h, indices: pattern(w, h, 1), minimumCodeSize: 2)
  b.trailer()
  return b.bytes
}

private func pattern(_ w: Int, _ h: Int, _ k: Int) -> [UInt8] { (0..<(w * h)).map { UInt8(($0 % w + $0 / w + k) % 4) } }

/// Frame `k` of `twoFrames` as RGBA, straight alpha, transparent pixels 0,0,0,0.
private func rgba(_ w: Int, _ h: Int, _ k: Int) -> [UInt8] {
  pattern(w, h, k).flatMap { i -> [UInt8] in
    k == 0 && i == 3 ? [0, 0, 0, 0] : [palette[Int(i) * 3], palette[Int(i) * 3 + 1], palette[Int(i) * 3 + 2], 255]
  }
}

/// A w×h still of palette index `index`.
private func solid(_ w: Int, _ h: Int, index: UInt8) -> [UInt8] {
  var b = GIFBuilder(width: w, height: h, globalPalette: palette)
  b.image(width: w, height: h, indices: [UInt8](repeating: index, count: w * h), minimumCodeSize: 2)
  b.trailer()
  return b.bytes
}

/// Waits for the window to show `index`'s colour everywhere, at `w`×`h`.
private func showsSolid(_ v: Viewer, _ w: Int, _ h: Int, index: Int) -> Bool {
  eventually { v.size == (w, h) && v.pixels == [UInt32](repeating: rgb(palette, index), count: w * h) }
}

private func title(_ v: Viewer) -> String? { v.probe.string(v.window, "_NET_WM_NAME") }

/// `path` as a file:// URI, every byte outside the unreserved set percent-encoded.
private func fileURI(_ path: String) -> String {
  let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)
  return "file://"
    + path.utf8.map { unreserved.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }
    .joined()
}

@Suite("CLIPBOARD: Ctrl+c copies the frame, Ctrl+v opens a path (ICCCM)", .enabled(if: Xvfb.available), .serialized)
struct ClipboardTests {
  @Test func ctrlCOffersTheShownFrameAsPNGWithTargetsTimestampAndMultiple() throws {
    let (w, h) = (13, 7)
    let v = try Viewer(["--paused", temporaryFile("copy.gif", twoFrames(w, h))], on: clipboardTestsXvfb)
    #expect(eventually { v.pixels.count == w * h && v.pixels.first == rgb(palette, 0) }, "frame 0 not shown")
    #expect(v.probe.selectionOwner() != UInt(v.window))
    v.probe.sendKey(v.window, keysym: keyC, state: WindowProbe.controlMask)
    #expect(eventually { v.probe.selectionOwner() == v.window }, "gifview did not take the CLIPBOARD")

    let targets = try #require(v.probe.convertSelection(target: "TARGETS"), "no answer to TARGETS")
    #expect(targets.type == "ATOM")
    #expect(targets.atomNames(v.probe) == ["TARGETS", "TIMESTAMP", "MULTIPLE", "image/png"])

    let png = try #require(v.probe.convertSelection(target: "image/png"), "no answer to image/png")
    #expect(!png.refused && png.type == "image/png" && !png.incremental)
    let image = try PNG.decode(png.bytes)
    #expect(image.width == w && image.height == h)
    #expect(image.rgba == rgba(w, h, 0), "the PNG is not frame 0")

    let stamp = try #require(v.probe.convertSelection(target: "TIMESTAMP"))
    #expect(stamp.type == "INTEGER" && stamp.longs.count == 1 && stamp.longs[0] != 0, "\(stamp)")

    let html = try #require(v.probe.convertSelection(target: "text/html"))
    #expect(html.refused, "an unknown target must be refused")

    // MULTIPLE: each pair answered on its own, the refused one's property set to None.
    let multiple = try #require(v.probe.convertMultiple(targets: ["image/png", "text/html", "TARGETS"]))
    #expect(multiple.count == 3)
    #expect(multiple[0]?.bytes == png.bytes)
    #expect(multiple[1] == nil)
    #expect(multiple[2]?.atomNames(v.probe) == ["TARGETS", "TIMESTAMP", "MULTIPLE", "image/png"])

    // The frame on show, not the first: step to frame 1 and copy again.
    v.key(WindowProbe.keyPeriod)
    #expect(eventually { v.pixels.first == rgb(palette, 1) }, "frame 1 not shown")
    v.probe.sendKey(v.window, keysym: keyC, state: WindowProbe.controlMask)
    #expect(
      eventually {
        guard let bytes = v.probe.convertSelection(target: "image/png", timeoutMS: 500)?.bytes else { return false }
        return (try? PNG.decode(bytes))?.rgba == rgba(w, h, 1)
      }, "the second copy is not frame 1")

    // Another client takes the CLIPBOARD: gifview no longer answers for it.
    v.probe.ownSelection()
    #expect(v.probe.selectionOwner() != v.window)
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 0)
    #expect(v.process.stderr.isEmpty, "stderr: \(v.process.stderr)")
  }

  @Test func aLargeFrameGoesByINCRAndArrivesWhole() throws {
    // 1500×1500 of noise in 16 colours: a PNG well over the 256 KiB chunk.
    let (w, h) = (1500, 1500)
    var colours: [UInt8] = []
    for i in 0..<16 { colours += [UInt8(i * 16), UInt8(255 - i * 13), UInt8((i * 97) % 256)] }
    var state: UInt32 = 12345
    let indices = (0..<(w * h)).map { _ -> UInt8 in
      state = state &* 1_103_515_245 &+ 12345
      return UInt8((state >> 16) & 15)
    }
    var b = GIFBuilder(width: w, height: h, globalPalette: colours)
    b.image(width: w, height: h, indices: indices, minimumCodeSize: 4)
    b.trailer()
    let expected = indices.flatMap { i -> [UInt8] in
      [colours[Int(i) * 3], colours[Int(i) * 3 + 1], colours[Int(i) * 3 + 2], 255]
    }
    let v = try Viewer([temporaryFile("noise.gif", b.bytes)], on: clipboardTestsXvfb)
    // Scaled into 90 % of the 1280×1024 screen; wait for the picture, not the spinner. The
    // PNG is made at the first request (seconds under load: the wait allows a minute).
    #expect(eventually { v.size.width < w && Set(v.pixels.prefix(5000)).count > 8 }, "the noise is not shown")
    v.probe.sendKey(v.window, keysym: keyC, state: WindowProbe.controlMask)
    #expect(eventually { v.probe.selectionOwner() == v.window })
    let started = Date()
    let reply = try #require(v.probe.convertSelection(target: "image/png", timeoutMS: 60_000), "no answer")
    let seconds = Date().timeIntervalSince(started)
    #expect(reply.incremental, "a \(reply.bytes.count)-byte PNG must go by INCR")
    #expect(reply.bytes.count > 256 * 1024)
    #expect(reply.announcedSize == reply.bytes.count)
    #expect(reply.chunks == (reply.bytes.count + 262_143) / 262_144, "\(reply.chunks) chunks")
    let image = try PNG.decode(reply.bytes)
    #expect(image.width == w && image.height == h)
    #expect(image.rgba == expected, "the reassembled PNG is not the frame")
    print("INCR: \(reply.bytes.count) bytes in \(reply.chunks) chunks, \(String(format: "%.3f", seconds)) s")
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 0)
  }

  @Test func ctrlVOpensAPathOfferedAsUTF8String() throws {
    let a = temporaryFile("a.gif", solid(20, 10, index: 0))
    let b = temporaryFile("b.gif", solid(30, 16, index: 2))
    let v = try Viewer([a], on: clipboardTestsXvfb)
    #expect(showsSolid(v, 20, 10, index: 0))
    v.probe.ownSelection()
    v.probe.sendKey(v.window, keysym: keyV, state: WindowProbe.controlMask)
    let asked = v.probe.serveSelection(offers: ["UTF8_STRING": Array((b + "\n").utf8)]) {
      title(v) == "b.gif — gifview"
    }
    #expect(title(v) == "b.gif — gifview")
    #expect(asked == ["TARGETS", "UTF8_STRING"])
    #expect(showsSolid(v, 30, 16, index: 2), "the pasted file is not shown")
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 0)
    #expect(v.process.stderr.isEmpty, "stderr: \(v.process.stderr)")
  }

  @Test func aPastedURIListOfTwoFilesBecomesTwoSourcesAndIsPreferredToText() throws {
    let a = temporaryFile("a.gif", solid(20, 10, index: 0))
    let b = temporaryFile("b c.gif", solid(30, 16, index: 2))
    let c = temporaryFile("d.gif", solid(24, 12, index: 1))
    let v = try Viewer([a], on: clipboardTestsXvfb)
    #expect(showsSolid(v, 20, 10, index: 0))
    v.probe.ownSelection()
    v.probe.sendKey(v.window, keysym: keyV, state: WindowProbe.controlMask)
    let list = "# two files\r\n\(fileURI(b))\r\n\(fileURI(c))\r\n"
    let asked = v.probe.serveSelection(offers: ["text/uri-list": Array(list.utf8), "UTF8_STRING": Array(a.utf8)]) {
      title(v) == "b c.gif (1/2) — gifview"
    }
    #expect(asked == ["TARGETS", "text/uri-list"])
    #expect(showsSolid(v, 30, 16, index: 2))
    v.key(WindowProbe.keyN)
    #expect(eventually { title(v) == "d.gif (2/2) — gifview" }, "no second source: \(title(v) ?? "")")
    #expect(showsSolid(v, 24, 12, index: 1))
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 0)
  }

  @Test func aPasteReadsAnINCRTransfer() throws {
    let a = temporaryFile("a.gif", solid(20, 10, index: 0))
    let b = temporaryFile("incr.gif", solid(30, 16, index: 2))
    let v = try Viewer([a], on: clipboardTestsXvfb)
    #expect(showsSolid(v, 20, 10, index: 0))
    v.probe.ownSelection()
    v.probe.sendKey(v.window, keysym: keyV, state: WindowProbe.controlMask)
    // 7-byte chunks: the path arrives in many pieces.
    v.probe.serveSelection(offers: ["UTF8_STRING": Array(b.utf8)], chunk: 7) { title(v) == "incr.gif — gifview" }
    #expect(title(v) == "incr.gif — gifview")
    #expect(showsSolid(v, 30, 16, index: 2))
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 0)
    #expect(v.process.stderr.isEmpty, "stderr: \(v.process.stderr)")
  }

  @Test func anOwnerThatNeverAnswersTimesOutWithAMessageAndNoHang() throws {
    let a = temporaryFile("a.gif", solid(20, 10, index: 0))
    let v = try Viewer(["--geometry", "400x200", a], on: clipboardTestsXvfb)
    #expect(eventually { v.pixels.count == 400 * 200 && v.pixels[0] != 0 })
    let before = v.pixels
    v.probe.ownSelection()  // and never answers
    let asked = Date()
    v.probe.sendKey(v.window, keysym: keyV, state: WindowProbe.controlMask)
    // The window keeps working meanwhile: `b` still switches the background.
    let line = "gifview: error: clipboard: nothing to open: its owner did not answer within 2 s\n"
    #expect(eventually(timeout: 5) { v.process.stderr == line }, "stderr: \(v.process.stderr)")
    let waited = Date().timeIntervalSince(asked)
    #expect(waited >= 1.9 && waited < 3.5, "gave up after \(waited) s")
    #expect(eventually { v.pixels != before }, "the message is not shown in the window")
    #expect(title(v) == "a.gif — gifview")
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 0)
  }

  @Test func pastedTextThatNamesNoFileIsReportedEscapedAndTooMuchIsRefused() throws {
    let a = temporaryFile("a.gif", solid(20, 10, index: 0))
    let v = try Viewer([a], on: clipboardTestsXvfb)
    #expect(showsSolid(v, 20, 10, index: 0))
    v.probe.ownSelection()
    v.probe.sendKey(v.window, keysym: keyV, state: WindowProbe.controlMask)
    let text = Array("/nonexistent/\u{1b}[31mred.gif".utf8)
    let line1 = "gifview: error: clipboard: nothing to open: /nonexistent/\\x1b[31mred.gif: No such file or directory\n"
    v.probe.serveSelection(offers: ["UTF8_STRING": text]) { v.process.stderr == line1 }
    #expect(v.process.stderr == line1)
    // Over the 1 MiB limit (by INCR): refused without reading the rest.
    v.probe.sendKey(v.window, keysym: keyV, state: WindowProbe.controlMask)
    let big = [UInt8](repeating: UInt8(ascii: "x"), count: 2 << 20)
    let line2 = "gifview: error: clipboard: nothing to open: its data is larger than 1048576 bytes\n"
    v.probe.serveSelection(offers: ["UTF8_STRING": big]) { v.process.stderr == line1 + line2 }
    #expect(v.process.stderr == line1 + line2)
    #expect(title(v) == "a.gif — gifview")
    #expect(showsSolid(v, 20, 10, index: 0))
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 0)
  }
}

@Suite("XDND version 5: files dropped on the window open in it", .enabled(if: Xvfb.available), .serialized)
struct DropTests {
  @Test func aDroppedFileURIIsAcceptedCopiedFinishedAndShown() throws {
    let a = temporaryFile("a.gif", solid(20, 10, index: 0))
    let b = temporaryFile("dropped.gif", solid(30, 16, index: 2))
    let v = try Viewer([a], on: clipboardTestsXvfb)
    #expect(showsSolid(v, 20, 10, index: 0))
    let report = v.probe.drop(
      on: v.window, types: ["text/uri-list", "text/plain"], offers: ["text/uri-list": Array((fileURI(b) + "\r\n").utf8)]
    )
    #expect(report.awareVersion == 5)
    #expect(report.accepted == true)
    #expect(report.statusAction == "XdndActionCopy")
    #expect(report.success == true)
    #expect(report.finishedAction == "XdndActionCopy")
    #expect(report.asked == ["TARGETS", "text/uri-list"])
    #expect(eventually { title(v) == "dropped.gif — gifview" }, "title: \(title(v) ?? "")")
    #expect(showsSolid(v, 30, 16, index: 2))
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 0)
    #expect(v.process.stderr.isEmpty, "stderr: \(v.process.stderr)")
  }

  @Test func twoDroppedFilesAmongFourTypesBecomeTwoSources() throws {
    let a = temporaryFile("a.gif", solid(20, 10, index: 0))
    let b = temporaryFile("first.gif", solid(30, 16, index: 2))
    let c = temporaryFile("second.gif", solid(24, 12, index: 1))
    let v = try Viewer([a], on: clipboardTestsXvfb)
    #expect(showsSolid(v, 20, 10, index: 0))
    // More than three types: they travel in XdndTypeList.
    let list = Array("\(fileURI(b))\r\n\(fileURI(c))\r\n".utf8)
    let report = v.probe.drop(
      on: v.window, types: ["application/x-unknown", "text/x-moz-url", "UTF8_STRING", "text/uri-list"],
      offers: ["text/uri-list": list, "UTF8_STRING": Array(a.utf8)])
    #expect(report.accepted == true && report.success == true, "\(report)")
    #expect(report.asked == ["TARGETS", "text/uri-list"])
    #expect(eventually { title(v) == "first.gif (1/2) — gifview" })
    #expect(showsSolid(v, 30, 16, index: 2))
    v.key(WindowProbe.keyN)
    #expect(eventually { title(v) == "second.gif (2/2) — gifview" })
    #expect(showsSolid(v, 24, 12, index: 1))
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 0)
  }

  @Test func aDragOfNoTextIsNotAccepted() throws {
    let a = temporaryFile("a.gif", solid(20, 10, index: 0))
    let v = try Viewer([a], on: clipboardTestsXvfb)
    #expect(showsSolid(v, 20, 10, index: 0))
    let report = v.probe.drop(on: v.window, types: ["image/png"], offers: ["image/png": [1, 2, 3]])
    #expect(report.awareVersion == 5)
    #expect(report.accepted == false)
    #expect(report.statusAction == nil)
    #expect(report.success == nil && report.asked.isEmpty)
    #expect(title(v) == "a.gif — gifview")
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 0)
    #expect(v.process.stderr.isEmpty, "stderr: \(v.process.stderr)")
  }
}
