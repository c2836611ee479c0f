import GIFDecoder
import X11Window

extension GIFView {
  /// Draws every visible player into its tile and presents the window once.
  func redraw(now: UInt64) {
    guard let window else { return }
    needsRedraw = false
    // A lone player still within its spinner grace period draws nothing yet: a local
    // file's first frame is then the first thing on screen.
    if !isGrid, case .loading = player.phase, !player.isSpinning(now: now) { return }
    let tiles =
      isGrid
      ? Tile.grid(count: players.count, width: window.width, height: window.height)
      : [Tile(x0: 0, y0: 0, x1: window.width, y1: window.height)]
    let step = spinnerStep(now: now)
    var text: [TextItem] = []
    if showInfo && !isGrid, case .playing = player.phase { text.append(infoOverlay()) }
    // A frame shown before in this view is on the server already: one copy.
    let keepKey = keepableFrame(now: now)
    if let key = keepKey, window.presentKept(key, text: text) {
      player.shownFrame = key
      return
    }
    window.draw { out, w, h in
      if isGrid { Painter.fill(out, width: w, tile: Tile(x0: 0, y0: 0, x1: w, y1: h), with: 0x1A1B1D) }
      for (p, tile) in zip(visible, tiles) {
        text += draw(p, in: tile, out: out, width: w, now: now, step: step)
      }
    }
    // The spinner's first paint is due and done (even if the window could not draw).
    for p in visible where p.isSpinning(now: now) && p.spinnerShownAt == nil { p.spinnerShownAt = now }
    if let key = keepKey {
      window.present(keepingAs: key, text: text)
    } else {
      window.present(text: text)
    }
  }

  /// The frame index under which the picture about to be drawn may be kept on the
  /// server: a single view of a finished frame, with nothing transient over it.
  private func keepableFrame(now: UInt64) -> Int? {
    guard !isGrid, let window, case .playing = player.phase, player.fadeStart == nil,
      !player.isWaitingForData, let cache = player.cache, cache.frame(player.timeline.current) != nil
    else { return nil }
    let view = ViewSignature(
      loadID: player.loadID, scale: currentScale, background: background, width: window.width, height: window.height)
    if view != keptView {
      window.dropKeptFrames()
      keptView = view
    }
    return player.timeline.current
  }

  /// One player's content in `tile`; answers the text to draw over it.
  private func draw(
    _ p: Player, in tile: Tile, out: UnsafeMutableBufferPointer<UInt32>, width bufferWidth: Int, now: UInt64, step: Int
  ) -> [TextItem] {
    let cx = Double(tile.x0 + tile.x1) / 2
    let cy = Double(tile.y0 + tile.y1) / 2
    let short = Double(min(tile.width, tile.height))
    switch p.phase {
    case .loading(let received, let expected):
      Painter.fill(out, width: bufferWidth, tile: tile, with: Spinner.backdrop)
      guard p.isSpinning(now: now) else { return [] }
      let r = min(28, max(8, short * 0.09))
      Spinner.draw(into: out, width: bufferWidth, height: tile.y1, cx: cx, cy: cy, radius: r, step: step)
      p.lastSpinnerStep = step
      if p.spinnerShownAt == nil { p.spinnerShownAt = now }
      if !isGrid {
        // The last spinner paint is what the first frame fades in over.
        if fadeFrom.count != out.count { fadeFrom = [UInt32](repeating: 0, count: out.count) }
        _ = fadeFrom.withUnsafeMutableBufferPointer { $0.update(fromContentsOf: out) }
      }
      guard let expected, expected > 0 else { return [] }
      let percent = min(100, received * 100 / expected)
      return [TextItem(["\(percent)%"], x: Int(cx), y: Int(cy + r) + 18, anchor: .center, boxed: false)]

    case .failed(let message):
      Painter.fill(out, width: bufferWidth, tile: tile, with: Spinner.backdrop)
      let r = min(30, max(10, short * 0.1))
      Spinner.drawFailureIcon(into: out, width: bufferWidth, height: tile.y1, cx: cx, cy: cy - r * 0.8, radius: r)
      let lines = isGrid ? [message] : [message, "r: retry   q: quit"]
      return [TextItem(lines, x: Int(cx), y: Int(cy + r) + 10, anchor: .center, boxed: false)]

    case .playing:
      guard let screen = p.screen, let frame = p.frameToShow() else {
        Painter.fill(out, width: bufferWidth, tile: tile, with: Spinner.backdrop)
        return []
      }
      let scale =
        isGrid
        ? min(
          1,
          ContentMode.fit.scale(
            imageWidth: screen.width, imageHeight: screen.height, windowWidth: tile.width, windowHeight: tile.height))
        : currentScale
      let place = Placement(imageWidth: screen.width, imageHeight: screen.height, scale: scale, in: tile)
      frame.withUnsafeBufferPointer { f in
        Painter.draw(
          frame: f, width: screen.width, height: screen.height, at: place, over: background, into: out,
          width: bufferWidth,
          tile: tile)
      }
      if p.isWaitingForData {
        // Playback waits on this frame until the next one arrives.
        let r = 7.0
        let x = Double(tile.x1) - 14
        let y = Double(tile.y1) - 14
        Spinner.disc(
          into: out, width: bufferWidth, height: tile.y1, cx: x, cy: y, radius: r + 4, color: Spinner.backdrop)
        Spinner.draw(into: out, width: bufferWidth, height: tile.y1, cx: x, cy: y, radius: r, step: step)
        p.lastSpinnerStep = step
      }
      if let start = p.fadeStart {
        let t = Double(now - start) / Double(Self.fadeNS)
        if t >= 1 || isGrid || fadeFrom.count != out.count {
          p.fadeStart = nil
        } else {
          fadeFrom.withUnsafeBufferPointer { from in Painter.crossFade(from, UnsafeBufferPointer(out), t: t, into: out)
          }
        }
      }
      return []
    }
  }

  func infoOverlay() -> TextItem {
    let p = player
    let t = p.timeline
    let i = t.current
    let delay = t.delaysNS.indices.contains(i) ? t.delaysNS[i] / 1_000_000 : 0
    let plays = t.plays.map(String.init) ?? "∞"
    let speed = (t.speed * 100).rounded() / 100
    var state = t.isPaused ? "paused" : t.isFinished ? "finished" : "playing"
    if p.isWaitingForData { state = "waiting for data" }
    var lines = [
      p.source.displayName,
      "frame \(i + 1)/\(t.frameCount)\(p.loadComplete ? "" : "+")   delay \(delay) ms",
      "play \(min(t.playsDone + 1, t.plays ?? Int.max))/\(plays)   speed \(speed)x   \(state)",
      "zoom \(Int((currentScale * 100).rounded()))%   \(p.screen?.width ?? 0)x\(p.screen?.height ?? 0)",
    ]
    if let w = p.warnings.first { lines.append("warning: " + w) }
    return TextItem(lines, x: 8, y: 8)
  }
}
