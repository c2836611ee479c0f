import GIFLoader
import GIFPlayback
import GIFView
import PNGCodec
import Synchronization
import SystemIO
import X11Window

/// Ctrl+c, Ctrl+v and drops (DESIGN §5): the shown frame offered on the CLIPBOARD as
/// image/png, and paths or URLs from the CLIPBOARD or a drop opened as the sources.
extension Viewer {
  /// The targets a paste or a drop is read in, most preferred first.
  static let textTargets = ["text/uri-list", "UTF8_STRING", "text/plain;charset=utf-8", "STRING", "text/plain"]
  /// A paste or a drop reads at most this much.
  static let pasteLimitBytes = 1 << 20
  /// Each step of a paste or a drop waits this long for the other client.
  static let pasteTimeoutNS: UInt64 = 2_000_000_000
  /// A notice in the window stays this long.
  static let noticeNS: UInt64 = 4_000_000_000

  func makeClipboardAndDropTarget() {
    let loop = runLoop!
    clipboard = SelectionOwner(window: top, selection: "CLIPBOARD")
    pasteRequest = SelectionRequestor(window: top, property: "_GIFVIEW_PASTE", now: { loop.nowNS })
    dropTarget = XdndTarget(
      window: top, acceptedTypes: Self.textTargets, maxBytes: Self.pasteLimitBytes, timeoutNS: Self.pasteTimeoutNS,
      now: { loop.nowNS })
  }

  /// Ctrl+c: the CLIPBOARD offers the frame on show (the composited canvas, straight
  /// alpha) as image/png. The PNG is encoded on a thread of its own, so a large frame
  /// never stalls playback; a client that asks before it is ready waits for it.
  func copyShownFrame() {
    guard let (v, size, _, pixels) = shownFrame(for: .copy) else { return }
    let source = v.playback.source.description
    guard clipboard.offer(pending: ["image/png"], time: copyTime == 0 ? nil : copyTime) else {
      printError(source, "cannot copy the frame: the X server did not give gifview the clipboard")
      return
    }
    let job = EncodeJob(source: source)
    copyJob = job
    let image = PNG.Image(width: size.width, height: size.height, argb: pixels)
    let wakeUp = wakeUp
    let started = spawnDetachedThread {
      do throws(PNG.Failure) {
        job.finish(.success(try PNG.encode(image)))
      } catch {
        job.finish(.failure(error))
      }
      wakeUp.wake()
    }
    if !started { job.finish(Result { () throws(PNG.Failure) in try PNG.encode(image) }) }
  }

  /// Once a turn: a finished PNG goes to the clients waiting for it.
  func takeEncodedCopy() {
    guard let job = copyJob, let result = job.result else { return }
    copyJob = nil
    switch result {
    case .success(let png): clipboard.provide("image/png", png)
    case .failure(let error):
      clipboard.provide("image/png", nil)
      printError(job.source, "cannot copy the frame: \(error.message)")
    }
  }

  /// Ctrl+v: asks for the CLIPBOARD as a uri-list or text; `takePastesAndDrops` opens
  /// what comes.
  func requestPaste() {
    pasteRequest.request(
      selection: "CLIPBOARD", preferences: Self.textTargets, maxBytes: Self.pasteLimitBytes,
      timeoutNS: Self.pasteTimeoutNS)
  }

  /// Once a turn: a paste's or a drop's data (or failure) that arrived.
  func takePastesAndDrops() {
    if let r = pasteRequest.takeResult() {
      switch r {
      case .success(let got): open(got.bytes, target: got.target, from: "clipboard")
      case .failure(let f): tell("clipboard", f.description)
      }
    }
    for r in dropTarget.takeDrops() {
      switch r {
      case .success(let drop): open(drop.bytes, target: drop.type, from: "drop")
      case .failure(let f): tell("drop", f.description)
      }
    }
    if let n = notice, runLoop.nowNS >= n.until { notice = nil }
  }

  /// The next moment a paste, a drop or a notice needs the loop.
  var clipboardDeadline: UInt64? {
    [pasteRequest.nextDeadlineNS, dropTarget.nextDeadlineNS, notice?.until].compactMap { $0 }.min()
  }

  /// Opens the paths and URLs in text from outside (every one shown escaped): those that
  /// can be opened become the sources; each that cannot is reported.
  private func open(_ bytes: [UInt8], target: String, from origin: String) {
    let arguments = expandingDirectories(pastedArguments(bytes, target: target), recursive: false)
    var opened: [GIFPlayback.Source] = []
    var problems: [String] = []
    for a in arguments {
      do throws(LoadError) {
        let s = try Source(argumentBytes: a)
        if let reason = unopenableReason(s) {
          problems.append("\(s.description): \(reason)")
          continue
        }
        opened.append(GIFPlayback.Source(s))
      } catch {
        problems.append("\(error.source): \(error.description)")
      }
    }
    guard !opened.isEmpty else {
      for p in problems.dropLast() { printError(nil, p) }
      tell(origin, problems.last ?? "no path or URL in '\(displayText(bytes.prefix(200)))'")
      return
    }
    for p in problems { printError(nil, p) }
    notice = nil
    replaceSources(with: opened)
  }

  /// "nothing to open" on stderr and, for a while, in the window (`detail` holds outside
  /// text: it is shown escaped).
  private func tell(_ origin: String, _ detail: String) {
    printError(origin, "nothing to open: " + detail)
    notice = (
      displayText("nothing to open from the \(origin)") + "\n" + displayText(detail), runLoop.nowNS + Self.noticeNS
    )
    for v in views { v.setNeedsDisplay() }
  }
}

/// A PNG being encoded for the CLIPBOARD off the UI thread.
final class EncodeJob: Sendable {
  let source: String
  private let state = Mutex<Result<[UInt8], PNG.Failure>?>(nil)

  init(source: String) { self.source = source }

  func finish(_ result: Result<[UInt8], PNG.Failure>) { state.withLock { $0 = result } }

  /// The outcome, once the encoding ended.
  var result: Result<[UInt8], PNG.Failure>? { state.withLock { $0 } }
}
