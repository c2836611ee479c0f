import GIFDecoder
import GIFLoader

/// Why a playback failed: a kind to act on and a one-line message that reads well after
/// the source's name ("cat.gif: not a GIF file").
public struct PlaybackError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong, coarsely: enough for a host to choose an icon or offer a retry.
  public enum Kind: Equatable, Sendable {
    /// A local file or stdin could not be opened or read.
    case unreadable
    /// The transfer failed: DNS, connection, TLS, HTTP status, redirects.
    case network
    /// The transfer or the connection took too long.
    case timedOut
    /// The input is larger than a limit (download size, input size, canvas size).
    case tooLarge
    /// The bytes are not a GIF (or there are none).
    case notAGIF
    /// A GIF too damaged to show anything.
    case damaged
  }

  /// The kind of failure.
  public var kind: Kind
  /// One line, without the source's name.
  public var message: String

  /// A failure of `kind` described by `message`.
  public init(_ kind: Kind, message: String) {
    self.kind = kind
    self.message = message
  }

  /// The message.
  public var description: String { message }

  init(_ e: LoadError) {
    let kind: Kind =
      switch e.kind {
      case .system, .isDirectory, .cancelled: .unreadable
      case .emptyInput, .notAGIF: .notAGIF
      case .tooLarge: .tooLarge
      case .timedOut, .tooSlow: .timedOut
      case .truncated: .damaged
      case .unsupportedURL, .network, .http, .unresolvedHost, .connectionRefused, .untrustedCertificate,
        .certificateExpired, .certificateNameMismatch, .headerTooLarge, .closedBeforeResponse, .tooManyRedirects,
        .redirectScheme:
        .network
      }
    self.init(kind, message: e.description)
  }

  init(_ e: GIFError) {
    let kind: Kind =
      switch e.kind {
      case .emptyInput, .notAGIF: .notAGIF
      case .canvasTooLarge, .inputTooLarge, .frameTooLarge: .tooLarge
      case .truncatedHeader, .badScreenSize, .noImages, .noImage: .damaged
      }
    self.init(kind, message: e.description)
  }
}
