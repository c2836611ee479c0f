import GIFLoader

/// The loader's source type (its module's name is shadowed by its `GIFLoader` class).
package typealias LoaderSource = Source

extension GIFPlayback {
  /// What a playback plays: a file, a URL, stdin, or bytes in memory (the seed
  /// component's `.name` and `.url`).
  public struct Source: Sendable, Equatable, CustomStringConvertible {
    enum Storage: Equatable {
      case load(LoaderSource)
      case bytes([UInt8], name: String)
    }
    let storage: Storage

    package init(_ source: LoaderSource) { storage = .load(source) }

    /// A local file.
    public static func path(_ path: String) -> Source { Source(.path(path)) }

    /// Standard input (read once; a reload replays what arrived).
    public static let standardInput = Source(.stdin)

    /// GIF bytes already in memory; `name` is what titles and messages call them.
    public static func bytes(_ bytes: [UInt8], name: String = "memory") -> Source {
      Source(storage: .bytes(bytes, name: name))
    }

    private init(storage: Storage) { self.storage = storage }

    /// Parses what a user typed: a path, `-`, an `http(s)://` or a `file://` URL.
    public init(argument: String) throws(PlaybackError) {
      do {
        self.init(try LoaderSource(argument: argument))
      } catch {
        throw PlaybackError(error)
      }
    }

    /// An `http://` or `https://` URL, or a `file://` URL.
    public static func url(_ url: String) throws(PlaybackError) -> Source {
      let lower = url.lowercased()
      guard lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("file://") else {
        throw PlaybackError(.network, message: "not an http, https or file URL")
      }
      return try Source(argument: url)
    }

    /// The source as the user gave it (a path, `-`, or the URL).
    public var description: String {
      switch storage {
      case .load(let s): s.description
      case .bytes(_, let name): name
      }
    }

    /// The short name a title shows: a file's base name, "stdin", or the URL.
    public var displayName: String {
      switch storage {
      case .load(let s): s.displayName
      case .bytes(_, let name): name
      }
    }

    /// The loader's view of the source (nil for bytes in memory).
    package var loaderSource: LoaderSource? {
      if case .load(let s) = storage { return s }
      return nil
    }
  }
}
