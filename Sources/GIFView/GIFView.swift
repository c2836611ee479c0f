import GIFDecoder
import GIFPlayback
import X11Window

/// The component: draws one `GIFPlayback` into a rectangle of a window its host owns,
/// on the host's X connection (FLAnimatedImageView's role, natively on X11).
///
/// The view is an X child window of the host's window, so it clips itself and gets its
/// own Expose events; keys and clicks go on to the host. It shows the spinner while
/// loading (after a grace period), then the GIF fitted, filled or at 1:1 over a
/// background, or a failure card. Everything runs on the host's UI thread: the host polls
/// `fileDescriptors`, waits until `nextDeadline`, passes the view its window's events, and
/// calls `update(now:)`; or it uses `GIFViewRunLoop`. The view never writes to stderr,
/// never exits, and installs no process-wide handler.
public final class GIFView {
  /// The playback shown.
  public let playback: GIFPlayback
  private let window: ChildWindow

  /// How the GIF fills the view.
  public var contentMode = ContentMode.fit { didSet { setNeedsDisplay() } }
  /// An explicit scale (zoom) instead of what `contentMode` gives; nil: the mode decides.
  public var scale: Double? { didSet { setNeedsDisplay() } }
  /// How far the image is moved from the centre, in view pixels; only an image larger
  /// than the view moves, and never so far that it leaves a gap on a side it covers.
  public var panOffset: (x: Int, y: Int) {
    get { clampedPan(requestedPan) }
    set {
      requestedPan = newValue
      setNeedsDisplay()
    }
  }
  private var requestedPan = (x: 0, y: 0)
  /// What shows through transparent pixels and around the image.
  public var background = Background.checker { didSet { setNeedsDisplay() } }
  /// Text drawn over the picture (an info overlay, a help card).
  public var overlay: [TextItem] = [] { didSet { setNeedsDisplay() } }
  /// The host wants the shown frame's pixels (`playback.displayedPixels`), e.g. to save or
  /// copy it: the playback keeps rendering even when the server holds every frame.
  public var hostNeedsPixels = false {
    didSet {
      guard hostNeedsPixels else { return }
      playback.needsPixels = true
      playback.hostDroppedFrames()  // the shown frame is rendered again, even if kept
    }
  }
  /// A second line under the failure message (e.g. "r: retry").
  public var failureHint: String? { didSet { setNeedsDisplay() } }

  private var needsDisplay = true
  private var isShown = false
  /// The last spinner picture, which the first frame cross-fades from.
  private var fadeFrom: [UInt32] = []
  /// What the frames kept on the X server were drawn for.
  private var keptView: Prerenderer.Look?
  /// Draws the next frames at the view's size off the UI thread.
  private let prerenderer: Prerenderer
  /// Frames drawn ahead of the one on show.
  static let prerenderAhead = 3

  /// A view of `playback` at (x, y) in `parent`, `width`×`height`, on `connection`.
  /// It is created unmapped; `show()` maps it.
  public init(
    playback: GIFPlayback, connection: X11Connection, parent: XWindowID, x: Int, y: Int, width: Int, height: Int,
    useSHM: Bool = true
  ) {
    self.playback = playback
    self.window = ChildWindow(
      connection: connection, parent: parent, x: x, y: y, width: width, height: height, useSHM: useSHM)
    playback.hostKeepsFrames = true
    prerenderer = Prerenderer()
  }

  deinit {
    prerenderer.close()
    window.close()
  }

  /// The view's own X window.
  public var windowID: XWindowID { window.id }
  /// The view's rectangle in its parent.
  public var frame: (x: Int, y: Int, width: Int, height: Int) { (window.x, window.y, window.width, window.height) }
  /// The view draws with MIT-SHM.
  public var usesSHM: Bool { window.usesSHM }

  /// Moves or resizes the view.
  public func setFrame(x: Int, y: Int, width: Int, height: Int) {
    let resized = width != window.width || height != window.height
    window.setFrame(x: x, y: y, width: width, height: height)
    if resized { setNeedsDisplay() }
  }

  /// Maps the view's window.
  public func show() {
    guard !isShown else { return }
    isShown = true
    window.map()
    setNeedsDisplay()
  }

  /// Unmaps the view's window.
  public func hide() {
    guard isShown else { return }
    isShown = false
    window.unmap()
  }

  /// Asks for a repaint at the next `update`.
  public func setNeedsDisplay() { needsDisplay = true }

  /// Frames kept on the X server may take this many bytes (a grid shares its budget).
  public var keptFramesBudgetBytes: Int {
    get { window.keptFramesBudgetBytes }
    set { window.keptFramesBudgetBytes = newValue }
  }

  /// Handles an event for `windowID` (Expose); answers true when it was the view's.
  @discardableResult
  public func handle(_ event: WindowEvent, for window: XWindowID) -> Bool {
    guard window == self.window.id else { return false }
    if event == .expose { setNeedsDisplay() }
    return true
  }

  /// When `update` must run next (nil: only on input or a wake-up).
  public var nextDeadline: UInt64? { playback.nextDeadline }

  /// Ticks the playback to `now` and draws if anything visible changed.
  public func update(now: UInt64) {
    if playback.tick(now: now) { needsDisplay = true }
    guard isShown else { return }
    if needsDisplay {
      needsDisplay = false
      draw()
    }
    prerenderNext()
  }

  /// The look frames are drawn with now (nil: nothing to draw ahead).
  private var look: Prerenderer.Look? {
    guard case .playing = playback.phase, let size = playback.size else { return nil }
    return Prerenderer.Look(
      load: playback.loadID, place: placement(size: size, scale: effectiveScale), background: background,
      width: window.width, height: window.height)
  }

  /// Views smaller than this draw each frame themselves (under a millisecond), and so
  /// does a view at 1:1 (a copy, with no area to average).
  static let prerenderMinimumPixels = 1 << 18

  /// Asks for the frames after the one on show (the ones not kept on the server).
  private func prerenderNext() {
    guard let look, look.width * look.height >= Self.prerenderMinimumPixels, effectiveScale != 1,
      let current = playback.displayedFrame,
      playback.frameCount > 1, playback.isAnimating
    else { return }
    var frames: [(index: Int, frame: RenderedFrame)] = []
    let count = playback.frameCount
    for step in 1...Self.prerenderAhead {
      let i = current + step
      // Past the last frame only when every frame is known.
      guard i < count || playback.isLoadComplete else { break }
      if let frame = playback.renderedFrame(i % count) { frames.append((i % count, frame)) }
    }
    prerenderer.want(frames, look: look)
  }

  /// The scale the image is drawn at now.
  public var effectiveScale: Double {
    if let scale { return scale }
    guard let size = playback.size else { return 1 }
    return contentMode.scale(
      imageWidth: size.width, imageHeight: size.height, windowWidth: window.width, windowHeight: window.height)
  }

  /// Zooms to `newScale` keeping the image point under view point (x, y) where it is
  /// (a wheel zoom at the pointer).
  public func zoom(to newScale: Double, keepingViewPoint x: Int, _ y: Int) {
    guard let size = playback.size else {
      scale = newScale
      return
    }
    let old = placement(size: size, scale: effectiveScale)
    let imageX = Double(x - old.x) / old.scale
    let imageY = Double(y - old.y) / old.scale
    scale = newScale
    let centred = Placement(
      imageWidth: size.width, imageHeight: size.height, scale: newScale,
      in: Tile(x0: 0, y0: 0, x1: window.width, y1: window.height))
    requestedPan = (
      Int((Double(x) - imageX * newScale).rounded()) - centred.x,
      Int((Double(y) - imageY * newScale).rounded()) - centred.y
    )
    setNeedsDisplay()
  }

  private func clampedPan(_ p: (x: Int, y: Int)) -> (x: Int, y: Int) {
    guard let size = playback.size else { return (0, 0) }
    let s = effectiveScale
    func clamp(_ v: Int, image: Int, view: Int) -> Int {
      let scaled = Int((Double(image) * s).rounded())
      guard scaled > view else { return 0 }
      let slack = (scaled - view) / 2
      // Centred at x0 = (view - scaled) / 2 (rounded down): the far edge may take one more.
      return min(max(v, -(scaled - view - slack)), slack)
    }
    return (clamp(p.x, image: size.width, view: window.width), clamp(p.y, image: size.height, view: window.height))
  }

  /// Where the image lands in the view at `scale`, pan included.
  private func placement(size: (width: Int, height: Int), scale: Double) -> Placement {
    var place = Placement(
      imageWidth: size.width, imageHeight: size.height, scale: scale,
      in: Tile(x0: 0, y0: 0, x1: window.width, y1: window.height))
    let pan = panOffset
    place.x += pan.x
    place.y += pan.y
    return place
  }

  // MARK: - Drawing

  private func draw() {
    let tile = Tile(x0: 0, y0: 0, x1: window.width, y1: window.height)
    switch playback.phase {
    case .loading(let received, let expected):
      // Within the grace period nothing is drawn: a local file's first frame is then
      // the first thing on screen.
      guard playback.showsSpinner else { return }
      var text: [TextItem] = []
      window.draw { out, w, h in
        let r = spinnerRadius(tile)
        Painter.fill(out, width: w, tile: tile, with: Spinner.backdrop)
        Spinner.draw(
          into: out, width: w, height: h, cx: Double(w) / 2, cy: Double(h) / 2, radius: r, step: playback.spinnerStep)
        if fadeFrom.count != out.count { fadeFrom = [UInt32](repeating: 0, count: out.count) }
        fadeFrom.withUnsafeMutableBufferPointer { _ = $0.update(fromContentsOf: out) }
        if let expected, expected > 0 {
          let percent = min(100, received * 100 / expected)
          text.append(
            TextItem(["\(percent)%"], x: w / 2, y: h / 2 + Int(r) + 18, anchor: .center, boxed: false))
        }
      }
      window.present(text: text + overlay)

    case .failed(let error):
      var text: [TextItem] = []
      window.draw { out, w, h in
        Painter.fill(out, width: w, tile: tile, with: Spinner.backdrop)
        let short = Double(min(w, h))
        let r = min(30, max(6, short * 0.1))
        let lineHeight = window.lineHeight
        // The icon goes only where the text still fits under it.
        let showIcon = Double(h) > r * 2 + Double(lineHeight) * 2 + 16
        let iconY = Double(h) / 2 - (showIcon ? r * 0.8 : 0)
        if showIcon {
          Spinner.drawFailureIcon(into: out, width: w, height: h, cx: Double(w) / 2, cy: iconY, radius: r)
        }
        let top = showIcon ? Int(iconY + r) + 6 : 4
        let maxLines = max(1, (h - top - 8) / max(lineHeight, 1))
        let lines = window.fitText(
          [error.message] + (failureHint.map { [$0] } ?? []), maxWidth: w - 16, maxLines: maxLines)
        let height = lines.count * lineHeight + 8
        text.append(TextItem(lines, x: w / 2, y: min(top + height / 2, h - height / 2), anchor: .center, boxed: false))
      }
      window.present(text: text + overlay)

    case .playing:
      // A frame kept on the server is not rendered again (no decoding, no scaling after
      // the first loop): one copy on the server shows it.
      if let index = playback.displayedFrame, playback.displayedImage == nil {
        if keptView != nil && keptView == look, window.presentKept(index, text: overlay) { return }
        if keptView != nil || !playback.needsPixels {
          // What was kept is gone or stale: the frames are rendered again.
          dropKeptFrames()
          playback.needsPixels = true
          setNeedsDisplay()
          return
        }
      }
      guard let size = playback.size, let image = playback.displayedImage, let index = playback.displayedFrame else {
        window.draw { out, w, _ in Painter.fill(out, width: w, tile: tile, with: Spinner.backdrop) }
        window.present(text: overlay)
        return
      }
      let scale = effectiveScale
      let keep = playback.fadeProgress == nil && !playback.isWaitingForData
      if keep {
        if let view = look, view != keptView {
          dropKeptFrames()
          keptView = view
        }
        // A frame shown before in this view is on the server already: one copy.
        if window.presentKept(index, text: overlay) {
          if !hostNeedsPixels { playback.hostKeeps(frame: index) }  // e.g. again after a save
          noteKeptFrames()
          return
        }
      }
      let ready = look.flatMap { prerenderer.picture(index, look: $0) }
      window.draw { out, w, h in
        if let ready, ready.count == out.count {
          _ = out.update(fromContentsOf: ready)
        } else {
          let place = placement(size: size, scale: scale)
          Painter.draw(frame: image, at: place, over: background, into: out, width: w, tile: tile)
        }
        if playback.isWaitingForData {
          // Playback waits on this frame until the next one arrives.
          let x = Double(w) - 14
          let y = Double(h) - 14
          Spinner.disc(into: out, width: w, height: h, cx: x, cy: y, radius: 11, color: Spinner.backdrop)
          Spinner.draw(into: out, width: w, height: h, cx: x, cy: y, radius: 7, step: playback.spinnerStep)
        }
        if let t = playback.fadeProgress, fadeFrom.count == out.count {
          fadeFrom.withUnsafeBufferPointer { from in
            Painter.crossFade(from, UnsafeBufferPointer(out), t: t, into: out)
          }
        }
      }
      if keep {
        // Kept on the server, the frame need not be kept in the process too.
        if window.present(keepingAs: index, text: overlay), !hostNeedsPixels { playback.hostKeeps(frame: index) }
        noteKeptFrames()
      } else {
        window.present(text: overlay)
      }
    }
  }

  /// Frees the frames kept on the server; the playback renders them again as needed.
  private func dropKeptFrames() {
    window.dropKeptFrames()
    keptView = nil
    playback.hostDroppedFrames()
  }

  /// Once the server keeps every frame of a complete load, the playback stops rendering.
  private func noteKeptFrames() {
    if hostNeedsPixels {
      playback.needsPixels = true
      return
    }
    if playback.isLoadComplete, playback.frameCount > 1, window.keptFrameCount >= playback.frameCount {
      playback.needsPixels = false
    }
  }

  private func spinnerRadius(_ tile: Tile) -> Double {
    min(28, max(8, Double(min(tile.width, tile.height)) * 0.09))
  }
}
