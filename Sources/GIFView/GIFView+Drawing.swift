import GIFDecoder
import X11Window

extension GIFView {
  func redraw(now: UInt64) {
    guard let window else { return }
    needsRedraw = false
    var text: [TextItem] = []
    switch phase {
    case .loading(let received, let expected):
      // Held back briefly so a local file's first frame is the first thing drawn.
      guard now >= spinnerDueAt else { return }
      let step = spinnerStep(now: now)
      lastSpinnerStep = step
      window.draw { out, w, h in
        out.update(repeating: Spinner.backdrop)
        let r = min(28, max(10, Double(min(w, h)) * 0.09))
        Spinner.draw(into: out, width: w, height: h, cx: Double(w) / 2, cy: Double(h) / 2, radius: r, step: step)
        if fadeFrom.count != out.count { fadeFrom = [UInt32](repeating: 0, count: out.count) }
        _ = fadeFrom.withUnsafeMutableBufferPointer { $0.update(fromContentsOf: out) }
      }
      if spinnerShownAt == nil { spinnerShownAt = now }
      let r = min(28, max(10, window.height * 9 / 100))
      if let expected, expected > 0 {
        let percent = min(100, received * 100 / expected)
        text.append(TextItem(["\(percent)%"], x: window.width / 2, y: window.height / 2 + r + 18, anchor: .center, boxed: false))
      }
    case .failed(let message):
      window.draw { out, w, h in
        out.update(repeating: Spinner.backdrop)
        let r = min(30, max(12, Double(min(w, h)) * 0.1))
        Spinner.drawFailureIcon(into: out, width: w, height: h, cx: Double(w) / 2, cy: Double(h) / 2 - r * 0.8, radius: r)
      }
      let r = min(30, max(12, min(window.width, window.height) / 10))
      text.append(
        TextItem(
          [message, "r: retry   q: quit"], x: window.width / 2, y: window.height / 2 + r + 10, anchor: .center,
          boxed: false))
    case .playing:
      guard drawFrame(window: window, now: now) else { return }
      if showInfo { text.append(infoOverlay()) }
    }
    window.present(text: text)
  }

  /// Draws the current frame (and the corner spinner or the fade); false when the frame
  /// is not rendered yet (the `.rendered` message brings us back).
  private func drawFrame(window: ViewerWindow, now: UInt64) -> Bool {
    guard let screen, let cache else { return false }
    let index = timeline.current
    guard let frame = cache.frame(index) ?? (shownFrame >= 0 ? cache.frame(shownFrame) : nil) else {
      return false
    }
    if cache.frame(index) != nil { shownFrame = index }
    let scale = currentScale
    let background = self.background
    let waiting = timeline.isWaiting && !loadComplete
    let step = spinnerStep(now: now)
    var fadeT: Double?
    if let start = fadeStart {
      let t = Double(now - start) / Double(Self.fadeNS)
      if t >= 1 { fadeStart = nil } else { fadeT = t }
    }
    window.draw { out, w, h in
      let place = Placement(imageWidth: screen.width, imageHeight: screen.height, scale: scale, windowWidth: w, windowHeight: h)
      frame.withUnsafeBufferPointer { f in
        Painter.draw(frame: f, width: screen.width, height: screen.height, at: place, over: background, into: out, width: w, height: h)
      }
      if waiting {
        lastSpinnerStep = step
        let r = 7.0
        Spinner.disc(into: out, width: w, height: h, cx: Double(w) - 14, cy: Double(h) - 14, radius: r + 4, color: Spinner.backdrop)
        Spinner.draw(into: out, width: w, height: h, cx: Double(w) - 14, cy: Double(h) - 14, radius: r, step: step)
      }
      if let t = fadeT, fadeFrom.count == out.count {
        fadeFrom.withUnsafeBufferPointer { from in
          Painter.crossFade(from, UnsafeBufferPointer(out), t: t, into: out)
        }
      }
    }
    return true
  }

  func infoOverlay() -> TextItem {
    let n = timeline.frameCount
    let i = timeline.current
    let delay = timeline.delaysNS.indices.contains(i) ? timeline.delaysNS[i] / 1_000_000 : 0
    let plays = timeline.plays.map(String.init) ?? "∞"
    let speed = (timeline.speed * 100).rounded() / 100
    let zoomPercent = Int((currentScale * 100).rounded())
    var state = timeline.isPaused ? "paused" : timeline.isFinished ? "finished" : "playing"
    if timeline.isWaiting { state = "waiting for data" }
    var lines = [
      source.displayName,
      "frame \(i + 1)/\(n)\(loadComplete ? "" : "+")   delay \(delay) ms",
      "play \(min(timeline.playsDone + 1, timeline.plays ?? Int.max))/\(plays)   speed \(speed)x   \(state)",
      "zoom \(zoomPercent)%   \(screen?.width ?? 0)x\(screen?.height ?? 0)",
    ]
    if !warnings.isEmpty { lines.append("warning: " + warnings[0]) }
    return TextItem(lines, x: 8, y: 8)
  }
}
