import CX11
import Glibc

/// The window's pixels on the client side: an XImage in MIT-SHM when the server can
/// attach it, else a plain XImage sent with XPutImage. Both give identical pixels.
final class Surface {
  let width: Int
  let height: Int
  let image: UnsafeMutablePointer<XImage>
  let usesSHM: Bool
  private var shmInfo = XShmSegmentInfo()
  private unowned let display: X11Connection

  /// 32-bit pixels, `width` per row (bytes_per_line is checked to be width × 4).
  var pixels: UnsafeMutableBufferPointer<UInt32> {
    UnsafeMutableBufferPointer(
      start: UnsafeMutableRawPointer(image.pointee.data).assumingMemoryBound(to: UInt32.self),
      count: width * height)
  }

  init?(display: X11Connection, width: Int, height: Int, trySHM: Bool) {
    self.display = display
    self.width = width
    self.height = height
    let d = display.display
    if trySHM, display.hasSHM, let img = Surface.createSHM(display, width, height, &shmInfo) {
      image = img
      usesSHM = true
      return
    }
    let bytes = width * height * 4
    guard let data = malloc(max(bytes, 4)) else { return nil }
    memset(data, 0, max(bytes, 4))
    guard
      let img = XCreateImage(
        d, display.visual, UInt32(display.depth), ZPixmap, 0, data.assumingMemoryBound(to: CChar.self),
        UInt32(width), UInt32(height), 32, Int32(width * 4))
    else {
      free(data)
      return nil
    }
    image = img
    usesSHM = false
  }

  private static func createSHM(
    _ display: X11Connection, _ w: Int, _ h: Int, _ info: inout XShmSegmentInfo
  ) -> UnsafeMutablePointer<XImage>? {
    let d = display.display
    guard let img = XShmCreateImage(d, display.visual, UInt32(display.depth), ZPixmap, nil, &info, UInt32(w), UInt32(h))
    else { return nil }
    guard img.pointee.bytes_per_line == Int32(w * 4), img.pointee.bits_per_pixel == 32 else {
      gv_destroy_image(img)
      return nil
    }
    let size = Int(img.pointee.bytes_per_line) * h
    info.shmid = shmget(IPC_PRIVATE, max(size, 4), IPC_CREAT | 0o600)
    guard info.shmid >= 0 else {
      gv_destroy_image(img)
      return nil
    }
    let addr = shmat(info.shmid, nil, 0)
    guard let addr, gv_shmat_failed(addr) == 0 else {
      shmctl(info.shmid, IPC_RMID, nil)
      gv_destroy_image(img)
      return nil
    }
    info.shmaddr = addr.assumingMemoryBound(to: CChar.self)
    info.readOnly = 0
    img.pointee.data = info.shmaddr
    // A refused attach (remote display, other user) arrives as an X error.
    let attached = display.catchingErrors { XShmAttach(d, &info) != 0 }
    // Marked for removal now: the segment goes away with the last detach, even on SIGKILL.
    shmctl(info.shmid, IPC_RMID, nil)
    guard attached else {
      shmdt(addr)
      img.pointee.data = nil
      gv_destroy_image(img)
      return nil
    }
    return img
  }

  /// Sends the whole image to `drawable` (the caller syncs before drawing into the
  /// buffer again).
  func present(to drawable: Drawable, gc: GC) {
    let d = display.display
    if usesSHM {
      XShmPutImage(d, drawable, gc, image, 0, 0, 0, 0, UInt32(width), UInt32(height), 0)
    } else {
      XPutImage(d, drawable, gc, image, 0, 0, 0, 0, UInt32(width), UInt32(height))
    }
  }

  func destroy() {
    let d = display.display
    if usesSHM {
      XShmDetach(d, &shmInfo)
      XSync(d, 0)
      shmdt(shmInfo.shmaddr)
      image.pointee.data = nil
    }
    gv_destroy_image(image)  // frees the malloc'd data of a plain image
  }
}

/// How 0x00RRGGBB pixels map to a TrueColor visual's channel masks.
struct PixelLayout {
  var masks: (red: UInt, green: UInt, blue: UInt)

  var isBGRX: Bool { masks == (0xff0000, 0x00ff00, 0x0000ff) }

  @inline(__always)
  private func place(_ v: UInt32, _ mask: UInt) -> UInt32 {
    // Scale the 8-bit channel to the mask's width and shift it into place.
    let shift = UInt32(mask.trailingZeroBitCount)
    let bits = UInt32((mask >> UInt(shift)).nonzeroBitCount)
    // Wider channels repeat the top bits (255 → 1023 at 10 bits: full scale stays full).
    let scaled = bits >= 8 ? v << (bits - 8) | v >> (16 - min(bits, 16)) : v >> (8 - bits)
    return scaled << shift
  }

  func convert(_ p: UInt32) -> UInt32 {
    isBGRX ? p : place(p >> 16 & 0xff, masks.red) | place(p >> 8 & 0xff, masks.green) | place(p & 0xff, masks.blue)
  }

  func convert(_ pixels: UnsafeMutableBufferPointer<UInt32>) {
    guard !isBGRX else { return }
    for i in 0..<pixels.count { pixels[i] = convert(pixels[i]) }
  }
}
