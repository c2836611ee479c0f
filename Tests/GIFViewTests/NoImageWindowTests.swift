import GIFTestSupport
import Testing
import X11Window

extension LoaderWindowTests {
  /// A GIF with a screen and a trailer but no image (issue 12): the failure card and exit
  /// status 1 with "no image in file", not an empty window that exits 0.
  @Test func aGIFWithNoImageShowsTheFailureCardAndExits1() throws {
    var gif = GIFBuilder(width: 8, height: 8, globalPalette: [0, 0, 0, 255, 255, 255])
    gif.comment("nothing to see")
    gif.trailer()
    let path = temporaryFile("no-image.gif", gif.bytes)
    let v = try Viewer([path], on: loaderWindowTestsXvfb)
    #expect(eventually { v.pixels.contains(0xD64541) }, "no failure card")
    v.key(WindowProbe.keyQ)
    #expect(v.process.wait(timeout: 3) == 1)
    #expect(v.process.stderr == "gifview: error: \(path): no image in file\n", "stderr: \(v.process.stderr)")
  }
}
