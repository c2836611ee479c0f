import Foundation

/// Decodes an 8-bit RGBA, non-interlaced PNG with python3's zlib and the PNG row filters
/// written out here: a check on libpng's output that does not go through libpng.
public func decodePNGWithPython(_ png: [UInt8]) -> (width: Int, height: Int, rgba: [UInt8])? {
  let script = """
    import sys, struct, zlib
    d = sys.stdin.buffer.read()
    assert d[:8] == b'\\x89PNG\\r\\n\\x1a\\n', 'signature'
    i, idat, ihdr = 8, b'', None
    while i < len(d):
        n, = struct.unpack('>I', d[i:i+4]); t = d[i+4:i+8]; body = d[i+8:i+8+n]; i += 12 + n
        if t == b'IHDR': ihdr = struct.unpack('>IIBBBBB', body)
        elif t == b'IDAT': idat += body
    w, h, depth, ctype, _, _, interlace = ihdr
    assert depth == 8 and ctype == 6 and interlace == 0, ihdr
    raw = zlib.decompress(idat); stride = w * 4; out = bytearray(); prev = bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]; row = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = row[x - 4] if x >= 4 else 0; b = prev[x]; c = prev[x - 4] if x >= 4 else 0
            if f == 1: row[x] = (row[x] + a) & 255
            elif f == 2: row[x] = (row[x] + b) & 255
            elif f == 3: row[x] = (row[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[x] = (row[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += row; prev = row
    sys.stdout.write('%d %d ' % (w, h) + out.hex())
    """
  let p = Process()
  p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
  p.arguments = ["-c", script]
  let input = Pipe()
  let output = Pipe()
  p.standardInput = input
  p.standardOutput = output
  p.standardError = FileHandle.nullDevice
  guard (try? withUnblockedSignals({ try p.run() })) != nil else { return nil }
  input.fileHandleForWriting.write(Data(png))
  try? input.fileHandleForWriting.close()
  let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  p.waitUntilExit()
  let parts = text.split(separator: " ")
  guard p.terminationStatus == 0, parts.count == 3, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
  let hex = Array(parts[2].utf8)
  var bytes: [UInt8] = []
  bytes.reserveCapacity(hex.count / 2)
  for i in stride(from: 0, to: hex.count, by: 2) {
    guard let byte = UInt8(String(decoding: hex[i..<(i + 2)], as: UTF8.self), radix: 16) else { return nil }
    bytes.append(byte)
  }
  return bytes.count == w * h * 4 ? (w, h, bytes) : nil
}
