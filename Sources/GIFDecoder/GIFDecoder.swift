/// An incremental GIF87a/GIF89a parser (Wuffs-style: all state lives in the struct,
/// no blocking reads, no recursion). Feed bytes as they arrive, call `next()` until it
/// answers `.needMoreData`; call `finish()` when the input is complete.
///
/// It hands out each image as soon as its data sub-blocks are complete, with the LZW
/// stream unframed (or, for an input that can be read again, only where that stream lies
/// in it); `LZW` and `Compositor` turn that into pixels.
public struct GIFDecoder: Sendable {
  /// What the decoder accepts.
  public let limits: Limits
  /// Frames carry their LZW data (`FrameInfo.compressed`). When false they carry only
  /// `dataRange`, and the image data is read again from the input when a frame is drawn
  /// (`FrameRenderer.render(_:canvas:from:)`): memory then no longer grows with the file.
  public let retainsImageData: Bool

  // Input: `buffer[pos...]` is unread; `base` is the absolute offset of `buffer[0]`.
  private var buffer: [UInt8] = []
  private var pos = 0
  private var base = 0
  private var closed = false
  private var totalFed = 0

  private enum State: Sendable {
    case header
    case globalPalette(entries: Int)
    case blocks
    case extensionData(label: UInt8, blocks: [[UInt8]], size: Int)
    case imageData(FrameInfo)
    case done
  }
  private var state = State.header

  /// The logical screen, once its descriptor has been read.
  public private(set) var screen: ScreenInfo?
  /// Images whose descriptors have been read so far.
  public private(set) var frameCount = 0
  /// Damage seen so far that still allows display.
  public private(set) var warnings: [GIFWarning] = []
  /// Comment extensions seen so far.
  public private(set) var comments: [String] = []
  /// Stored NETSCAPE2.0/ANIMEXTS1.0 value that counts: the last one seen before the
  /// last image (nil = no loop extension).
  public var loopCount: Int? { loopCountAtLastImage }
  private var latestLoopCount: Int?
  private var loopCountAtLastImage: Int?
  private var gce: (delayCS: Int, disposal: Int, transparent: Int?)?

  private static let maxExtensionBytes = 1 << 16

  /// A decoder that refuses what exceeds `limits`; see `retainsImageData`.
  public init(limits: Limits = .default, retainsImageData: Bool = true) {
    self.limits = limits
    self.retainsImageData = retainsImageData
  }

  /// A decoder over a complete input (no copy of `bytes` is made).
  public init(bytes: [UInt8], limits: Limits = .default) {
    self.limits = limits
    self.retainsImageData = true
    self.buffer = bytes
    self.totalFed = bytes.count
    self.closed = true
  }

  /// Appends the next bytes of the input.
  public mutating func feed(_ bytes: some Collection<UInt8>) {
    precondition(!closed, "feed after finish")
    compactIfWorthIt()
    buffer.append(contentsOf: bytes)
    totalFed += bytes.count
  }

  /// No more input will come: a parse waiting for bytes becomes a "truncated" warning.
  public mutating func finish() { closed = true }

  /// The trailer was reached or the input ended.
  public var isFinished: Bool {
    if case .done = state { return true }
    return false
  }

  private var available: Int { buffer.count - pos }
  private var offset: Int { base + pos }

  private mutating func compactIfWorthIt() {
    if pos >= 1 << 16 && pos * 2 >= buffer.count {
      buffer.removeSubrange(0..<pos)
      base += pos
      pos = 0
    }
  }

  @inline(__always) private func byte(_ i: Int) -> UInt8 { buffer[pos + i] }
  @inline(__always) private func u16(_ i: Int) -> Int { Int(buffer[pos + i]) | Int(buffer[pos + i + 1]) << 8 }

  /// The next thing the input holds. Throws only for inputs that cannot be shown at all;
  /// damage after the header is a warning and ends the file early.
  public mutating func next() throws(GIFError) -> DecoderEvent {
    if totalFed > limits.maxInputBytes {
      state = .done
      throw GIFError(.inputTooLarge(limit: limits.maxInputBytes), offset: limits.maxInputBytes)
    }
    while true {
      switch state {
      case .done:
        // A file with no image is damage too: nothing to show (issue 12).
        if frameCount == 0 { throw GIFError(warnings.isEmpty ? .noImage : .noImages, offset: offset) }
        return .end

      case .header:
        let have = min(available, 6)
        let signature: [UInt8] = Array("GIF8".utf8)
        for i in 0..<min(have, 4) where byte(i) != signature[i] {
          state = .done
          throw GIFError(.notAGIF, offset: i)
        }
        guard available >= 13 else {
          if !closed { return .needMoreData }
          state = .done
          throw GIFError(buffer.isEmpty ? .emptyInput : have < 4 ? .notAGIF : .truncatedHeader, offset: 0)
        }
        let version = String(decoding: buffer[(pos + 3)..<(pos + 6)], as: UTF8.self)
        let width = u16(6)
        let height = u16(8)
        let packed = byte(10)
        if width == 0 || height == 0 {
          state = .done
          throw GIFError(.badScreenSize(width: width, height: height), offset: 6)
        }
        if width * height > limits.maxCanvasPixels {
          state = .done
          throw GIFError(
            .canvasTooLarge(width: width, height: height, limit: limits.maxCanvasPixels), offset: 6)
        }
        pos += 13
        screen = ScreenInfo(version: version, width: width, height: height, globalPalette: nil)
        if packed & 0x80 != 0 {
          state = .globalPalette(entries: 2 << Int(packed & 7))
        } else {
          state = .blocks
          return .screen(screen!)
        }

      case .globalPalette(let entries):
        guard available >= 3 * entries else {
          if !closed { return .needMoreData }
          warn(.truncated, frame: nil)
          state = .done  // show the (empty) screen; the palette's bytes are not blocks
          return .screen(screen!)
        }
        screen!.globalPalette = Palette(rgb: Array(buffer[pos..<(pos + 3 * entries)]))
        pos += 3 * entries
        state = .blocks
        return .screen(screen!)

      case .blocks:
        guard available >= 1 else {
          if !closed { return .needMoreData }
          warn(.truncated, frame: nil)
          state = .done
          continue
        }
        switch byte(0) {
        case 0x21:
          guard available >= 2 else {
            if !closed { return .needMoreData }
            warn(.truncated, frame: nil)
            state = .done
            continue
          }
          state = .extensionData(label: byte(1), blocks: [], size: 0)
          pos += 2
        case 0x2C:
          if let event = try parseImageDescriptor() { return event }
        case 0x3B:
          pos += 1
          state = .done
        default:
          warn(.unexpectedByte(byte(0)), frame: nil)
          state = .done
        }

      case .extensionData(let label, var blocks, var size):
        // `state` gives up its payload first, so the appends below mutate a unique
        // buffer instead of copying the whole payload each time.
        state = .done
        guard let block = readSubBlock() else {
          if !closed {
            state = .extensionData(label: label, blocks: blocks, size: size)
            return .needMoreData
          }
          warn(.truncated, frame: nil)
          state = .done
          continue
        }
        if block.isEmpty {
          state = .blocks
          finishExtension(label: label, blocks: blocks)
          continue
        }
        // Keep what an extension needs to be understood; skip the bulk of large ones.
        if size < Self.maxExtensionBytes {
          blocks.append(Array(buffer[block]))
          size += block.count
        }
        state = .extensionData(label: label, blocks: blocks, size: size)

      case .imageData(var frame):
        state = .done  // as above: `frame.compressed` stays uniquely referenced
        var finished = false
        if retainsImageData {
          // Take every complete sub-block that is there in one go, into one allocation.
          if frame.compressed.isEmpty { frame.compressed.reserveCapacity(subBlockBytesAvailable()) }
          while let block = readSubBlock() {
            if block.isEmpty {
              finished = true
              break
            }
            frame.compressed.append(contentsOf: buffer[block])
          }
        } else {
          while let block = readSubBlock() {
            if block.isEmpty {
              finished = true
              break
            }
          }
        }
        if finished {
          frame.dataRange = frame.dataRange.lowerBound..<offset
          state = .blocks
          frameCount += 1
          return .frame(frame)
        }
        if !closed {
          state = .imageData(frame)
          return .needMoreData
        }
        // The input ended inside the image: keep what arrived (DESIGN §2), including the
        // bytes of a sub-block cut short.
        if retainsImageData && available > 1 { frame.compressed.append(contentsOf: buffer[(pos + 1)...]) }
        frame.dataRange = frame.dataRange.lowerBound..<(base + buffer.count)
        frame.dataComplete = false
        warn(.truncated, frame: frame.index)
        state = .done
        frameCount += 1
        return .frame(frame)
      }
    }
  }

  /// The data bytes of the sub-blocks from `pos` that are already in the buffer.
  private func subBlockBytesAvailable() -> Int {
    var total = 0
    var i = pos
    while i < buffer.count {
      let n = Int(buffer[i])
      if n == 0 || i + 1 + n > buffer.count { break }
      total += n
      i += 1 + n
    }
    return total
  }

  /// Reads one data sub-block (length byte + data) and answers the data's range in
  /// `buffer`; empty for the terminator; nil when it has not fully arrived.
  private mutating func readSubBlock() -> Range<Int>? {
    guard available >= 1 else { return nil }
    let n = Int(byte(0))
    guard available >= 1 + n else { return nil }
    let range = (pos + 1)..<(pos + 1 + n)
    pos += 1 + n
    return range
  }

  private mutating func parseImageDescriptor() throws(GIFError) -> DecoderEvent? {
    guard available >= 10 else {
      if !closed { return .needMoreData }
      warn(.truncated, frame: frameCount)
      state = .done
      return nil
    }
    let x = u16(1)
    let y = u16(3)
    let w = u16(5)
    let h = u16(7)
    let packed = byte(9)
    let localEntries = packed & 0x80 != 0 ? 2 << Int(packed & 7) : 0
    let paletteBytes = 3 * localEntries
    // The code-size byte must be there too, except for an empty image that is followed
    // directly by the next block (pygif's image-zero-* files have none).
    guard available >= 10 + paletteBytes + 1 else {
      if !closed { return .needMoreData }
      if w * h == 0 && available == 10 + paletteBytes {
        return emptyImage(x: x, y: y, w: w, h: h, packed: packed, paletteBytes: paletteBytes)
      }
      warn(.truncated, frame: frameCount)
      state = .done
      return nil
    }
    let codeSize = Int(byte(10 + paletteBytes))
    if w * h == 0 && (codeSize == 0x3B || codeSize == 0x21 || codeSize == 0x2C) {
      return emptyImage(x: x, y: y, w: w, h: h, packed: packed, paletteBytes: paletteBytes)
    }
    guard (1...11).contains(codeSize) else {
      warn(.badLZWCodeSize(codeSize), frame: frameCount)
      state = .done
      return nil
    }
    if w * h > limits.maxCanvasPixels {
      state = .done
      // Checked before its index buffer is allocated; frames before it are kept.
      guard frameCount > 0 else {
        throw GIFError(.frameTooLarge(width: w, height: h, limit: limits.maxCanvasPixels), offset: offset)
      }
      warn(.frameTooLarge(width: w, height: h), frame: frameCount)
      return nil
    }
    var frame = makeFrame(x: x, y: y, w: w, h: h, packed: packed, paletteBytes: paletteBytes, codeSize: codeSize)
    pos += 10 + paletteBytes + 1
    frame.dataRange = offset..<offset
    state = .imageData(frame)
    return nil
  }

  private mutating func emptyImage(x: Int, y: Int, w: Int, h: Int, packed: UInt8, paletteBytes: Int)
    -> DecoderEvent
  {
    var frame = makeFrame(x: x, y: y, w: w, h: h, packed: packed, paletteBytes: paletteBytes, codeSize: 2)
    pos += 10 + paletteBytes
    frame.dataRange = offset..<offset
    state = .blocks
    frameCount += 1
    return .frame(frame)
  }

  private mutating func makeFrame(
    x: Int, y: Int, w: Int, h: Int, packed: UInt8, paletteBytes: Int, codeSize: Int
  ) -> FrameInfo {
    let local: Palette? =
      paletteBytes > 0 ? Palette(rgb: Array(buffer[(pos + 10)..<(pos + 10 + paletteBytes)])) : nil
    let control = gce
    gce = nil  // a Graphic Control applies to the next image only
    loopCountAtLastImage = latestLoopCount
    return FrameInfo(
      index: frameCount, x: x, y: y, width: w, height: h,
      delayCS: control?.delayCS ?? 0, disposal: control?.disposal ?? 0,
      transparentIndex: control?.transparent,
      interlaced: packed & 0x40 != 0, hasLocalPalette: local != nil,
      palette: local ?? screen?.globalPalette, lzwMinimumCodeSize: codeSize,
      compressed: [], dataComplete: true, offset: offset)
  }

  private mutating func finishExtension(label: UInt8, blocks: [[UInt8]]) {
    switch label {
    case 0xF9:  // Graphic Control
      guard let b = blocks.first, b.count == 4 else {
        warn(.badGraphicControl, frame: frameCount)
        return
      }
      gce = (
        delayCS: Int(b[1]) | Int(b[2]) << 8, disposal: Int(b[0] >> 2) & 7,
        transparent: b[0] & 1 != 0 ? Int(b[3]) : nil
      )
    case 0xFE:  // Comment
      if comments.count < 1000 {
        comments.append(String(decoding: blocks.joined(), as: UTF8.self))
      }
    case 0xFF:  // Application
      guard blocks.count >= 2, blocks[0].count == 11 else { return }
      let id = String(decoding: blocks[0], as: UTF8.self)
      let sub = blocks[1]
      if id == "NETSCAPE2.0" || id == "ANIMEXTS1.0", sub.count >= 3, sub[0] == 1 {
        latestLoopCount = Int(sub[1]) | Int(sub[2]) << 8
      }
    default:
      break  // Plain Text and unknown extensions are skipped
    }
  }

  private mutating func warn(_ kind: GIFWarning.Kind, frame: Int?) {
    warnings.append(GIFWarning(kind, frame: frame, offset: offset))
  }
}
