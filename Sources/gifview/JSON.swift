import GIFLoader

/// A minimal JSON writer for `--info` (keys stay in the order DESIGN §4 lists them).
enum JSON {
  case null
  case bool(Bool)
  case int(Int)
  case string(String)
  case array([JSON])
  case object([(String, JSON)])

  func render(indent: Int = 0) -> String {
    let pad = String(repeating: "  ", count: indent + 1)
    let close = String(repeating: "  ", count: indent)
    switch self {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .int(let n): return String(n)
    case .string(let s): return Self.quote(s)
    case .array(let items):
      if items.isEmpty { return "[]" }
      // Arrays of objects get a line each; short scalar arrays stay on one line.
      if items.allSatisfy({ if case .object = $0 { return false } else { return true } }) {
        return "[" + items.map { $0.render(indent: indent) }.joined(separator: ", ") + "]"
      }
      return "[\n" + items.map { pad + $0.render(indent: indent + 1) }.joined(separator: ",\n") + "\n\(close)]"
    case .object(let fields):
      if fields.isEmpty { return "{}" }
      return "{\n"
        + fields.map { pad + Self.quote($0.0) + ": " + $0.1.render(indent: indent + 1) }.joined(separator: ",\n")
        + "\n\(close)}"
    }
  }

  static func quote(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
      switch u {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where isControlCharacter(u):
        // C0 must be escaped; DEL, C1 and the line and bidi controls are too, so the
        // output never carries a terminal control (DESIGN §4, issue 12).
        let h = String(u.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
      default: out.unicodeScalars.append(u)
      }
    }
    return out + "\""
  }
}
