extension PlayerPage {
    /// The page, with `{{manifest}}` where the manifest's JSON goes. The navigation follows the
    /// playback rules table (docs/playing.md, Playback rules), as `StoryNavigator` does.
    static let template = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
        <meta name="generator" content="storyreel">
        <link rel="icon" href="data:,">
        <title>Stories</title>
        <style>
        :root { color-scheme: dark; }
        * { box-sizing: border-box; }
        html, body { margin: 0; min-height: 100%; background: #111; color: #eee;
          font: 15px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
        .top { display: flex; align-items: baseline; gap: 16px; padding: 16px 16px 4px; }
        h1 { font-size: 18px; margin: 0; font-weight: 600; }
        .link { background: none; border: 0; padding: 0; color: #8ab4f8; text-decoration: underline;
          cursor: pointer; font: inherit; font-size: 13px; }
        .row { display: flex; gap: 14px; padding: 12px 16px 20px; margin: 0; list-style: none; overflow-x: auto; }
        .row li { flex: none; }
        .story { display: flex; flex-direction: column; align-items: center; gap: 6px; width: 84px; padding: 0;
          background: none; border: 0; color: inherit; font: inherit; cursor: pointer; }
        .ring { width: 78px; height: 78px; border-radius: 50%; padding: 3px; background: #3a3a3a; }
        .story.unseen .ring { background: conic-gradient(from 200deg, #feda75, #fa7e1e, #d62976, #962fbf, #4f5bd5, #feda75); }
        .ring img { display: block; width: 100%; height: 100%; border-radius: 50%; object-fit: cover;
          border: 3px solid #111; background: #333; }
        .handle { max-width: 84px; font-size: 12px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .story.seen .handle { color: #999; }
        .story:focus-visible { outline: 2px solid #8ab4f8; outline-offset: 4px; border-radius: 8px; }
        /* While a tapped story's first still loads, an arc turns on its ring (the avatar stays
           still); it shows only after 150 ms, so a quick opening does not flash it. */
        .ring { position: relative; }
        .story.opening .ring::after { content: ''; position: absolute; inset: 0; border-radius: 50%;
          border: 3px solid transparent; border-top-color: #fff; border-right-color: #fff;
          animation: spin .8s linear infinite, appear 0s .15s both; }
        @media (prefers-reduced-motion: reduce) {
          .story.opening .ring::after { border-color: #fff; animation: appear 0s .15s both; } }
        .empty { padding: 0 16px; color: #999; }
        /* The black beside a narrower frame is the viewer's too: a drag there neither scrolls,
           zooms nor pulls the page to refresh it, which lost the viewer (a touch QA pass). */
        .viewer { position: fixed; inset: 0; z-index: 10; display: none; align-items: center; justify-content: center;
          background: #000; touch-action: none; overscroll-behavior: none; }
        .viewer.open { display: flex; }
        /* Zoomed in (opened from a row a pinch enlarged), a pinch zooms out again: with no gesture
           of the browser's, part of the frame filled the screen, its buttons off it, for good (a
           phone QA pass). At the page's own scale a pinch stays nothing. */
        .viewer.zoomed, .viewer.zoomed .zones { touch-action: pinch-zoom; }
        .frame:focus { outline: none; }
        /* Focused from the keyboard (the viewer opened with Enter or Space), the frame shows it,
           over the picture and the chrome: an a11y QA pass found no focus shown until Tab. */
        .frame:focus-visible::after { content: ''; position: absolute; inset: 0; z-index: 40; pointer-events: none;
          box-shadow: inset 0 0 0 2px #fff, inset 0 0 0 4px #000; }
        .frame { position: relative; height: 100vh; height: 100dvh; width: calc(100vh * 9 / 16);
          width: calc(100dvh * var(--canvas-ratio, 0.5625)); max-width: 100vw;
          max-height: calc(100vw / var(--canvas-ratio, 0.5625)); overflow: hidden; background: #000;
          -webkit-touch-callout: none; -webkit-user-select: none; user-select: none; container-type: size; }
        @media (max-width: 600px) and (orientation: portrait) { .frame { width: 100vw; height: 100vh; height: 100dvh; max-height: none; } }
        /* The stage has the canvas's shape (--canvas-ratio) and covers the frame, so a clip of
           another shape is cut as its stills and the transitions' faces are: to the canvas, then
           to the frame (a QA pass: in a frame wider than 9:16 a landscape clip's video showed
           zoomed against its first-frame still). */
        .stage { position: absolute; left: 50%; top: 50%; width: 100%; height: 100%; transform: translate(-50%, -50%); }
        @supports (width: 1cqw) {
          .stage { width: max(100cqw, 100cqh * var(--canvas-ratio, 0.5625));
            height: max(100cqh, 100cqw / var(--canvas-ratio, 0.5625)); }
        }
        .layer { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: cover; opacity: 0;
          pointer-events: none; }
        .layer.shown { opacity: 1; }
        .chrome { position: absolute; left: 0; right: 0; top: 0; z-index: 20; padding: 8px 8px 24px;
          padding: max(8px, env(safe-area-inset-top)) max(8px, env(safe-area-inset-right)) 24px
            max(8px, env(safe-area-inset-left));
          background: linear-gradient(rgba(0,0,0,.6), rgba(0,0,0,0)); pointer-events: none; }
        /* A frame narrower than the screen (a landscape phone) is centred clear of the notch: a
           side inset counts only where the frame reaches that edge (a phone QA pass: an inset of
           47 px squeezed the centred frame's header, Close on a row of its own). */
        @supports (width: 1cqw) {
          .chrome { padding-left: max(8px, env(safe-area-inset-left) - (100vw - 100cqw) / 2);
            padding-right: max(8px, env(safe-area-inset-right) - (100vw - 100cqw) / 2); }
        }
        .chrome button { pointer-events: auto; }
        .bars { display: flex; gap: 3px; }
        /* The track is a grey of its own, not a white the picture shows through: over a white clip
           the fill measured 2.41:1 against it (an a11y QA pass; WCAG 1.4.11 asks 3:1 of a graphical
           object), now 4.4:1 there and 6.3:1 over black, where the track stands 3.3:1 from the black.
           A thin dark edge keeps the track apart from a white picture darkened by the scrim to its grey. */
        .bar { flex: 1; height: 3px; border-radius: 2px; background: rgba(120,120,120,.8); overflow: hidden;
          box-shadow: 0 0 0 1px rgba(0,0,0,.35); }
        /* A fill is scaled, not sized: a transform is the compositor's alone, where a width set
           every frame laid out and painted the chrome every frame while a clip played. */
        .bar > i { display: block; height: 100%; background: #fff; transform-origin: 0 0; transform: scaleX(0);
          will-change: transform; }
        /* Forced colours (Windows contrast themes) painted the fills in Canvas over the video, black
           on black over a dark clip (an a11y QA pass): the bars keep their own colours there. */
        @media (forced-colors: active) { .bars { forced-color-adjust: none; } }
        .head { display: flex; align-items: center; gap: 8px; margin-top: 8px; }
        .head img { width: 32px; height: 32px; border-radius: 50%; object-fit: cover; background: #333; }
        .who { flex: 1; min-width: 0; display: flex; gap: 8px; align-items: baseline; }
        .name { font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
        .count { font-size: 12px; color: #eee; white-space: nowrap; }
        /* Readable over any picture (white caption text over a white clip measured 1.8:1). */
        .name, .count { text-shadow: 0 0 2px #000, 0 1px 3px rgba(0,0,0,.9); }
        @media (prefers-contrast: more) { .chrome { background: rgba(0,0,0,.85); } }
        /* A narrow frame (a landscape phone, a short window): the name and the count take a
           line of their own under the avatar and the buttons (the name shrank to nothing). */
        .chrome { container-type: inline-size; }
        @container (max-width: 304px) {
          .head { flex-wrap: wrap; row-gap: 4px; }
          .who { order: 1; flex: 1 0 100%; }
          #pause { margin-left: auto; }
        }
        .icon { width: 36px; height: 36px; border: 0; border-radius: 50%; background: rgba(0,0,0,.3); color: #fff;
          font-size: 16px; line-height: 1; cursor: pointer; }
        .icon svg { width: 18px; height: 18px; display: block; margin: auto; fill: none; stroke: #fff; stroke-width: 2.2;
          stroke-linecap: round; stroke-linejoin: round; }
        /* White on black, as the tap zones' ring: readable over any picture (the blue ring measured
           1.04:1 against the scrim over a light clip, an a11y QA pass; WCAG 1.4.11 asks 3:1). */
        .icon:focus-visible { outline: 2px solid #fff; box-shadow: 0 0 0 4px #000; }
        .icon.silent { opacity: .7; }
        /* After the rules it narrows, or their sizes win (a touch QA pass: the icons stayed 36px). */
        @container (max-width: 200px) {
          .head { gap: 4px; }
          .head img { width: 28px; height: 28px; }
          .icon { width: 30px; height: 30px; }
        }
        .zone:focus-visible { outline: 2px solid #fff; outline-offset: -4px; box-shadow: inset 0 0 0 2px #000; }
        .zones { position: absolute; inset: 0; z-index: 10; display: flex; touch-action: none; user-select: none; }
        .zone { height: 100%; border: 0; padding: 0; margin: 0; background: transparent; cursor: pointer; }
        .zone.back { width: 33.333%; }
        .zone.forward { width: 66.667%; }
        /* A mouse's previous and next buttons, in the black beside the frame (a desktop QA pass: at
           1280x800 nothing showed how to move, and only a drag on the picture changed story). Only
           for a pointer that hovers and is fine, so never on a touch screen, and only where the
           black beside the frame has room for them: the sides share what the frame leaves (their
           contents, contained, take none from it), and a button shows on a side at least 76 px
           wide. Out of the Tab order: the zones are there. */
        .side { display: none; }
        @media (hover: hover) and (pointer: fine) {
          .side { display: flex; flex: 1 1 0; min-width: 0; align-self: stretch; align-items: center;
            container: side / inline-size; pointer-events: none; }
          .side.before { justify-content: flex-end; }
          .side.after { justify-content: flex-start; }
          .side.before .nav { margin-right: 16px; }
          .side.after .nav { margin-left: 16px; }
        }
        .nav { display: none; width: 44px; height: 44px; flex: none; border: 0; border-radius: 50%; padding: 0;
          background: rgba(255,255,255,.16); cursor: pointer; pointer-events: auto; }
        .nav:hover { background: rgba(255,255,255,.3); }
        .nav:focus-visible { outline: 2px solid #fff; box-shadow: 0 0 0 4px #000; }
        .nav svg { width: 22px; height: 22px; display: block; margin: auto; fill: none; stroke: #fff; stroke-width: 2.4;
          stroke-linecap: round; stroke-linejoin: round; }
        @container side (min-width: 76px) { .nav { display: block; } }
        .note, .endcard { position: absolute; left: 12px; right: 12px; z-index: 30; border-radius: 8px;
          background: rgba(0,0,0,.65); padding: 8px 12px; text-align: center; }
        /* Clear of a phone's home indicator (a phone QA pass: 5 px of the note lay over it). */
        .note { bottom: 16px; bottom: calc(16px + env(safe-area-inset-bottom, 0px)); font-size: 13px; }
        .endcard { top: 40%; }
        /* White (the blue link measured 3.3:1 over a white clip's scrim) and at least 24 px tall
           (WCAG 1.4.3 and 2.5.8; an a11y QA pass). */
        .endcard .link { color: #fff; min-height: 24px; padding: 4px 12px; }
        /* Taps, holds and swipes that start on a note or the end card reach the zones under them (a
           QA pass: the note of a clip that failed sat where a thumb lands, and nothing moved). */
        .note, .endcard { pointer-events: none; }
        .endcard button { pointer-events: auto; }
        .tapplay { position: absolute; inset: 0; z-index: 15; display: flex; align-items: center; justify-content: center;
          pointer-events: none; background: rgba(0,0,0,.3); }
        .tapplay p { display: flex; align-items: center; gap: 8px; margin: 0; padding: 10px 18px; border-radius: 999px;
          background: rgba(0,0,0,.7); font-weight: 600; }
        .tapplay svg { width: 20px; height: 20px; fill: #fff; }
        .loading { position: absolute; left: 50%; top: 50%; z-index: 12; width: 44px; height: 44px; margin: -22px 0 0 -22px;
          border: 4px solid rgba(255,255,255,.3); border-top-color: #fff; border-radius: 50%;
          animation: spin .8s linear infinite; pointer-events: none; }
        @keyframes spin { to { transform: rotate(360deg); } }
        @media (prefers-reduced-motion: reduce) { .loading { animation: none; border-color: rgba(255,255,255,.8); } }
        [hidden] { display: none !important; }
        /* The layers' order and the margins are here, not in style attributes, which a
           Content-Security-Policy without 'unsafe-hashes' drops (a QA pass: the cube played
           under the outgoing still). */
        #stillA { z-index: 1; } #stillB { z-index: 2; } #videoA, #videoC, #videoD { z-index: 3; }
        #videoB { z-index: 4; } #cube { z-index: 5; }
        #caption { margin: 0; } #endcard p { margin: 0 0 8px; }
        /* Shown only when the script has not run 2 s on (blocked, or JavaScript off). */
        .needs-script { animation: appear 0s 2s both; }
        @keyframes appear { from { visibility: hidden; } to { visibility: visible; } }
        .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
        /* In forced colours (a Windows contrast theme) box-shadows and backgrounds are dropped:
           the frame's ring is an outline there, an unseen story's ring a Highlight border, and
           the icons take the button's text colour (an a11y QA pass: no ring on the frame, seen
           and unseen stories alike, a white X on a light button). Last, so that it wins. */
        @media (forced-colors: active) {
          .frame:focus-visible::after { outline: 3px solid Highlight; outline-offset: -3px; }
          .story.unseen .ring { border: 3px solid Highlight; padding: 0; }
          .story.seen .ring { border: 1px solid GrayText; padding: 2px; }
          .icon svg { stroke: ButtonText; }
          .tapplay svg { fill: ButtonText; }
          .nav svg { stroke: ButtonText; }
        }
        </style>
        </head>
        <body>
        <div class="top"><h1>Stories</h1><button type="button" class="link" id="reset" aria-label="Reset seen stories">reset</button></div>
        <p class="needs-script" id="needsScript">This player needs JavaScript, with the page's inline script and
          style allowed: see "The player page" in storyreel's README (and docs/playing.md) for the Content-Security-Policy it needs.</p>
        <ul class="row" id="row" aria-label="Stories"></ul>
        <p class="empty" id="empty" hidden>No stories in this bundle.</p>
        <p class="empty" id="slash" role="alert" hidden></p>
        <div class="viewer" id="viewer" role="dialog" aria-modal="true" aria-label="Story viewer">
          <div class="side before"><button type="button" class="nav" id="previous" tabindex="-1" aria-label="Previous item"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M15 5l-7 7 7 7"/></svg></button></div>
          <div class="frame" id="frame" role="group" tabindex="-1">
            <div class="stage" id="stage">
              <img class="layer" id="stillA" alt="">
              <img class="layer" id="stillB" alt="">
              <video class="layer" id="videoA" aria-hidden="true" playsinline muted preload="auto"></video>
              <video class="layer" id="videoB" aria-hidden="true" playsinline muted preload="auto"></video>
              <video class="layer" id="videoC" aria-hidden="true" playsinline muted preload="metadata"></video>
              <video class="layer" id="videoD" aria-hidden="true" playsinline muted preload="metadata"></video>
              <video class="layer" id="cube" aria-hidden="true" playsinline muted preload="auto"></video>
            </div>
            <div class="zones" id="zones">
              <button type="button" class="zone back" id="back" aria-label="Previous item"></button>
              <button type="button" class="zone forward" id="forward" aria-label="Next item"></button>
            </div>
            <div class="chrome">
              <div class="bars" id="bars" aria-hidden="true"></div>
              <div class="head">
                <img id="headAvatar" alt="">
                <p class="who" id="caption" aria-live="polite" aria-atomic="true"><span class="name" id="name" dir="auto"></span><span class="sr">, item </span><span class="count" id="count"></span></p>
                <button type="button" class="icon" id="pause" aria-label="Pause"></button>
                <button type="button" class="icon" id="sound" aria-label="Unmute"></button>
                <button type="button" class="icon" id="close" aria-label="Close"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 6l12 12M18 6L6 18"/></svg></button>
              </div>
            </div>
            <div class="tapplay" id="tapToPlay" hidden><p><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M7 5l12 7-12 7z"/></svg>Tap to play</p></div>
            <div class="loading" id="loading" hidden></div>
            <p class="note" id="note" hidden>This clip can't play in this browser.</p>
            <div class="endcard" id="endcard" hidden><p id="endText">You're all caught up.</p>
              <button type="button" class="link" id="closeEnd" aria-label="Close the viewer">close</button></div>
            <p class="sr" id="announce" role="status" aria-live="polite"></p>
          </div>
          <div class="side after"><button type="button" class="nav" id="next" tabindex="-1" aria-label="Next item"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M9 5l7 7-7 7"/></svg></button></div>
        </div>
        <script type="application/json" id="manifest">{{manifest}}</script>
        <script>
        (() => {
          'use strict';
          const $ = (id) => document.getElementById(id);
          const SEEN = 'storyreel.seen.';
          const UNMUTED = 'storyreel.unmuted';
          const store = {
            get(key) { try { return localStorage.getItem(key); } catch (e) { return null; } },
            set(key, value) { try { localStorage.setItem(key, value); } catch (e) { /* private mode */ } },
            remove(key) { try { localStorage.removeItem(key); } catch (e) { /* storage blocked */ } },
          };
          const isSeen = (id) => store.get(SEEN + id) === '1';
          const reducedMotion = window.matchMedia ? matchMedia('(prefers-reduced-motion: reduce)') : { matches: false };

          // The playback rules (docs/playing.md: Playback rules), over the play order: the rules'
          // (seen stories last), or `order` (indexes into the manifest's stories), the row's as it
          // shows, which the viewer plays (see open()).
          class Navigator {
            constructor(manifest, seen, cutsOnly, order = null) {
              this.manifest = manifest;
              this.seen = seen;
              this.cutsOnly = cutsOnly;
              // A story with no items (render never writes one) is left out, as StoryNavigator does.
              const unseen = [], done = [];
              manifest.stories.forEach((story, index) => {
                if (story.items.length) (this.storySeen(story) ? done : unseen).push(index);
              });
              this.order = order ? order.filter((index) => manifest.stories[index].items.length) : unseen.concat(done);
              // Keyed as JSON, which no id can forge (joined with spaces, ids holding one found
              // another pair's clip), and the first of a pair listed twice wins, as in
              // StoryreelKit (a QA pass: the two players disagreed on such a manifest).
              this.transitions = new Map();
              for (const t of manifest.transitions) {
                const key = JSON.stringify([t.direction, t.from, t.to]);
                if (!this.transitions.has(key)) this.transitions.set(key, t);
              }
            }
            storySeen(story) { return story.isRead || story.items.every((item) => this.seen(item.id)); }
            story(position) { return this.manifest.stories[this.order[position]]; }
            firstUnseen(position) {
              const index = this.story(position).items.findIndex((item) => !this.seen(item.id));
              return index < 0 ? 0 : index;
            }
            transition(direction, from, to) {
              if (this.cutsOnly()) return null;
              return this.transitions.get(JSON.stringify([direction, this.story(from).id, this.story(to).id])) || null;
            }
            start(position) { return this.order.length ? { at: { story: position, item: this.firstUnseen(position) }, via: null } : END; }
            // The next step from `at` for `event`: {at, via} or END. `turning`: a transition into
            // `at` still turns, so `at` was never on screen and no forward turn starts from its
            // last frame (a backward one starts from its first frame, where the turn was heading).
            next(at, event, turning) {
              if (!at) return END;
              const count = this.order.length, items = this.story(at.story).items.length;
              const last = at.item === items - 1 && !turning, first = at.item === 0;
              switch (event) {
                case 'itemDidFinish': case 'tapForward':
                  if (at.item < items - 1) return { at: { story: at.story, item: at.item + 1 }, via: null };
                  return this.toNext(at, last);
                case 'swipeToNextStory':
                  return this.toNext(at, last);
                case 'tapBack':
                  if (!first) return { at: { story: at.story, item: at.item - 1 }, via: null };
                  return this.toPrevious(at, true);
                case 'swipeToPreviousStory':
                  return this.toPrevious(at, first);
              }
              return END;
            }
            toNext(at, fromLast) {
              if (at.story + 1 >= this.order.length) return END;
              const item = this.firstUnseen(at.story + 1);
              const via = fromLast && item === 0 ? this.transition('forward', at.story, at.story + 1) : null;
              return { at: { story: at.story + 1, item }, via };
            }
            toPrevious(at, fromFirst) {
              if (at.story === 0) return { at: { story: 0, item: 0 }, via: null };
              const via = fromFirst ? this.transition('backward', at.story, at.story - 1) : null;
              return { at: { story: at.story - 1, item: 0 }, via };
            }
          }
          const END = { end: true };
          const svg = (path) => `<svg viewBox="0 0 24 24" aria-hidden="true"><path d="${path}"/></svg>`;
          const ICONS = {
            pause: svg('M8 5v14M16 5v14'), play: svg('M7 5l12 7-12 7z'),
            muted: svg('M4 9h4l5-4v14l-5-4H4zM16 9l5 6M21 9l-5 6'), sound: svg('M4 9h4l5-4v14l-5-4H4zM16 8a5 5 0 0 1 0 8M18.5 5.5a8.5 8.5 0 0 1 0 13'),
          };

          // Four item videos: the one on screen, the next item's (preload auto), and the first items a
          // swipe to the next and to the previous story land on (preload metadata); the cube holds
          // the next transition. No other media element loads.
          const stage = { stills: [$('stillA'), $('stillB')], videos: [$('videoA'), $('videoB'), $('videoC'), $('videoD')], cube: $('cube') };
          let manifest = null, nav = null, at = null, phase = 'closed', transition = null, generation = 0;
          let rowOrder = null;  // the row's stories as it shows them (indexes into the manifest's), the play order
          let opening = null;  // the generation of an opening still waiting for its first still
          let rate = 1, paused = false, held = false, blocked = false, muted = !unmutedThisSession();
          let pageHidden = document.hidden;  // a hidden page (another tab, the phone locked) pauses
          let front = null, fallback = null, openedFrom = null;
          // The generation `front` and the cube were set up for: until a move's own element is
          // ready, nothing is active (see active()).
          let frontToken = -1, cubeToken = -1;
          let unseenWhileHidden = null;  // the seen mark of an item that came on screen in a hidden page
          let openingClick = null;  // the click on the row that opened the viewer, for a double click
          let offline = null;  // the generation of an item waiting for the network
          let probing = null;  // the generation of an item whose failed load the server is asked about
          // The story whose picture is on screen (a still, a clip, the cube turning into it), or
          // null for none: a picture kept while a move loads is cleared once the wait shows a
          // spinner under another story's header (see updateLoading).
          let pictureOf = null;
          let turnFrom = null;  // the story a turn turns from: its face may stay under the next one's name
          let latestStill = null;  // the still last asked for ({src, token}): a late one shows only if still wanted
          let endShare = 1;  // how full the bar of the item the reel ended on stays (see event)
          let movedAt = 0;  // when the last move came (performance.now()), for the same 300 ms
          const steps = [], endedEvents = [];
          const preloaded = new Map();
          let warmed = new Set();  // the clips preloadAround wants kept: the current one, next item, swipe targets
          let askedStills = new Set();  // the stills asked for since the last move (image()), which letGo keeps

          // An avatar that fails to load (offline, a CDN without it) is an empty grey circle, not
          // the browser's broken-image icon (a QA pass): a transparent pixel over its background.
          const BLANK = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
          // A story's picture in the row and the header: its user's avatar, else its first item's thumbnail.
          function headPicture(story) { return story.user.avatar || story.items[0].thumbnail; }
          function setAvatar(img, src) {
            if (img.dataset.src === src) return;
            img.dataset.src = src;
            img.onerror = () => { if (img.getAttribute('src') !== BLANK) img.src = BLANK; };
            img.src = src;
          }
          function unmutedThisSession() { try { return sessionStorage.getItem(UNMUTED) === '1'; } catch (e) { return false; } }
          function item(position = at) { return position ? nav.story(position.story).items[position.item] : null; }
          function name(position) { return `${nav.story(position.story).id}#${position.item}`; }
          // A Map, so a codec named `constructor` or `__proto__` is no key of every object.
          const CODECS = new Map([
            ['h264', 'avc1.42E01E'], ['hevc', 'hvc1.1.6.L93.B0'], ['vp9', 'vp09.00.10.08'], ['av1', 'av01.0.04M.08']]);
          function codecsOf(clip) { return clip.codecs || CODECS.get(clip.codec) || clip.codec; }
          function playable(clip) { return stage.cube.canPlayType(`video/mp4; codecs="${codecsOf(clip)}"`) !== ''; }
          // An item's sound plays unless its `audioCodecs` is one the browser refuses (an item
          // without one, from before them or of PCM audio, is taken to play).
          function soundPlays(clip) {
            return !clip.audioCodecs || stage.cube.canPlayType(`audio/mp4; codecs="${clip.audioCodecs}"`) !== '';
          }
          // A transition with no codecs (a manifest from before them) is tried, and cut if it fails.
          function playableTransition(via) { return !via.codecs || playable(via); }
          function quietly(promise) { if (promise && promise.catch) promise.catch(() => {}); }
          // How long the page waits before it goes on without something slow (a server that never
          // answers, a slow link): a still (the video shows instead, once it presents), the cube
          // (cut to the item, as when it fails), the manifest (the embedded copy plays); and how long
          // an item's clip waits for its still before it loads beside it.
          const PATIENCE = { still: 2000, transition: 1000, manifest: 3000, server: 5000, clip: 300 };
          // `promise`'s value, or `late` when it has not settled within `ms`.
          function within(promise, ms, late) {
            return new Promise((resolve) => {
              const timer = setTimeout(() => resolve(late), ms);
              promise.then((value) => { clearTimeout(timer); resolve(value); });
            });
          }
          // Pauses `video`, marked as the page's own pause (see the media listeners below).
          function halt(video) {
            if (video.paused) return;
            video.__pausedByPage = true;
            video.pause();
          }
          // The Image objects are kept (the last 24), not only their decode: one the garbage
          // collector took could leave the browser's memory cache, and its still was then fetched
          // again (or revalidated) at the swipe it was warmed for. One still loading that the next
          // move does not ask for is let go (letGo). `urgent`: a still the viewer waits for, which
          // goes before the prefetches (fetchpriority).
          function image(src, urgent = false) {
            if (!src) return Promise.resolve();
            askedStills.add(src);
            if (!preloaded.has(src)) {
              const img = new Image();
              if (urgent) img.fetchPriority = 'high';
              img.src = src;
              const entry = { img };
              entry.ready = img.decode().then(() => true, () => { entry.failed = true; return false; });
              preloaded.set(src, entry);
              while (preloaded.size > 24) preloaded.delete(preloaded.keys().next().value);
            }
            return preloaded.get(src).ready;
          }

          // A still's load, waited for at most PATIENCE.still and only once: one that kept the
          // page waiting that long is not waited for again, but shows when it has arrived by the
          // time it is asked for (an opening whose still never came waited twice: 2 s to open
          // the viewer, 2 s more to play the item).
          function still(src) {
            const ready = image(src, true), entry = preloaded.get(src);
            if (!entry) return ready;
            return within(ready, entry.late ? 0 : PATIENCE.still, false).then((ok) => {
              if (!ok) entry.late = true;
              return ok;
            });
          }
          // Stills: the back one is filled and decoded, then laid over the front one. Resolves to
          // false when another move came first, 'none' when there is no still to show: a manifest
          // from before the stills (no request), or one that failed to load (requested once). What
          // is on screen then stays until the next video presents (see keepUntilPresented).
          // A still that missed its patience ('none' too) is shown when it comes, if it is still
          // the last one asked for in the same move, over every video not of the item on screen,
          // and `lateShown` is called (a QA pass on a slow link: an opening still 0.5 s late was
          // never shown, the viewer black for 4 s until the clip played; a failed clip's turn ran
          // over the item before's picture while its own stills came and were never shown).
          async function showStill(src, token, owner = at.story, lateShown = null) {
            if (!src) return token === generation && 'none';
            const asked = latestStill = { src, token };
            const loaded = await still(src);
            if (token !== generation) return false;
            if (loaded) return layStill(src, token, owner);
            const entry = preloaded.get(src);
            if (entry) entry.ready.then((ok) => {
              if (!ok || token !== generation || latestStill !== asked) return;
              layStill(src, token, owner).then((shown) => {
                if (shown !== true) return;
                const own = phase === 'item' ? item().src : phase === 'transition' ? transition.src : null;
                for (const video of [...stage.videos, stage.cube]) if (video.getAttribute('src') !== own) video.classList.remove('shown');
                if (lateShown) lateShown();
              });
            });
            return 'none';
          }
          // Lays the loaded still `src` over the one on screen, for `owner`'s story.
          async function layStill(src, token, owner) {
            const [under, over] = stage.stills[1].classList.contains('front') ? stage.stills : [stage.stills[1], stage.stills[0]];
            if (over.getAttribute('src') === src && over.classList.contains('shown')) return true;
            const target = under;
            target.src = src;
            if (!target.complete) await target.decode().catch(() => {});
            if (token !== generation) return false;
            target.style.zIndex = 2; target.classList.add('shown', 'front');
            over.style.zIndex = 1; over.classList.remove('shown', 'front');
            pictureOf = owner;
            return true;
          }
          // Takes every still and video not of `clip` off the stage: what shows with the note of a
          // clip that failed, or under the end card, is that item's or black, never another's (a
          // QA pass: a failed clip's turn showed another story's still, uncovered as the cube went).
          function showOnly(clip) {
            const own = [clip.src, clip.firstFrame, clip.lastFrame];
            for (const layer of [...stage.stills, ...stage.videos, stage.cube]) {
              if (!own.includes(layer.getAttribute('src'))) layer.classList.remove('shown');
            }
            if (![...stage.stills, ...stage.videos].some((layer) => layer.classList.contains('shown'))) pictureOf = null;
            letGoOfClips();
          }
          function hideVideos(except) {
            for (const video of [...stage.videos, stage.cube]) {
              if (video === except) continue;
              video.classList.remove('shown');
              halt(video);
            }
            letGoOfClips();
          }
          // What the item at `at` may soon want (from the item a turn lands on, `turning`): its clip
          // and first still, the next item's and the swipe targets', the next transition, and its
          // own last frame where a forward turn may start from it (its face).
          function around(turning = false) {
            const clips = new Set([item().src]), stills = new Set([item().firstFrame]);
            const next = nav.next(at, 'itemDidFinish', turning);
            if (next !== END) {
              clips.add(item(next.at).src);
              stills.add(item(next.at).firstFrame);
              if (next.via) { clips.add(next.via.src); stills.add(item().lastFrame); }
            }
            for (const to of swipeTargets(turning)) { clips.add(item(to.at).src); stills.add(item(to.at).firstFrame); }
            return { clips, stills };
          }
          // A move lets go of the loads it no longer wants, which on a slow link took the bandwidth
          // of the item it lands on (a QA pass at 800 kb/s, eight quick taps: 1.1 MB fetched after
          // them for items passed, the landing item black under the spinner for 13 s): a still
          // that is loading, that the move did not ask for and that the item it lands on may not
          // soon want (around), its request aborted; and a clip likewise (letGoOfClips).
          function letGo() {
            const turning = phase === 'transition';
            const wanted = turning || phase === 'item' ? around(turning)
              : { clips: new Set(), stills: new Set(phase === 'end' ? [item().firstFrame] : []) };
            if (turning) wanted.clips.add(transition.src);
            warmed = wanted.clips;
            for (const [src, entry] of [...preloaded]) {
              if (entry.img.complete || askedStills.has(src) || wanted.stills.has(src)) continue;
              preloaded.delete(src);
              entry.img.removeAttribute('src');
            }
            letGoOfClips();
          }
          // A video element that loads a clip nobody wants (not on screen, not the item's, its
          // neighbours' or the next transition: warmed) is emptied, which aborts its load: a clip
          // passed with preload="auto" went on loading whole, and the cube of a turn tapped past.
          // One on screen keeps its picture (no black frame) until it is hidden.
          function letGoOfClips() {
            for (const video of [...stage.videos, stage.cube]) {
              const src = video.getAttribute('src');
              if (!src || warmed.has(src) || video.classList.contains('shown')
                || video.networkState !== HTMLMediaElement.NETWORK_LOADING) continue;
              reload(video, () => video.removeAttribute('src'));
            }
          }
          // With no still to cover the change, the picture on screen stays under what comes next,
          // rather than black, and is hidden once that presents (hideVideos(it)). Nothing plays
          // by then: go() paused every video, and a transition that lands has ended.
          function keepUntilPresented(still) {
            if (still !== 'none') hideVideos();
          }
          // Calls `then` once `video` has presented a frame of its current source.
          function whenPresented(video, token, then) {
            const go = () => { if (token === generation) then(); };
            if (video.requestVideoFrameCallback) video.requestVideoFrameCallback(go);
            else video.addEventListener('playing', function check() { if (video.readyState >= 2) go(); else setTimeout(check, 16); }, { once: true });
          }
          // Calls `then` once the page has drawn what it shows now: two animation frames on.
          function afterNextPaint(token, then) {
            requestAnimationFrame(() => requestAnimationFrame(() => { if (token === generation) then(); }));
          }
          function load(video, src) {
            if (video.getAttribute('src') !== src) {
              video.__retried = false;
              reload(video, () => { video.src = src; });
            }
          }
          // A load drops the media events still queued, among them the pause event of a halt()
          // just before (unlock's, at the opening tap): its mark then stayed, and the first pause
          // from outside the page was taken for the page's own (a browser test under load).
          function reload(video, change) {
            video.__pausedByPage = false;
            change();
            video.load();
          }
          // A browser may refuse play() (NotAllowedError), even muted: iOS Safari in Low Power Mode,
          // a policy. Unmuted, the page retries muted; refused muted, the viewer waits paused under
          // "Tap to play" (blocked) until a gesture plays it from its own handler (resume).
          function play(video) {
            video.playbackRate = rate;
            video.defaultPlaybackRate = rate;
            if (paused || held || pageHidden) return;
            const token = generation;
            quietly(video.play().catch((error) => {
              if (!refusal(error)) return;  // an AbortError: a pause or another source came first
              if (video.muted || video === stage.cube) { refused(video, token); return; }
              video.muted = true; muted = true; updateSound();
              quietly(video.play().catch((again) => { if (refusal(again)) refused(video, token); }));
            }));
          }
          function refusal(error) { return !!error && error.name === 'NotAllowedError'; }
          // What a screen reader is told: one live region, always in the page, written into. A
          // status element shown with its text already in it is not read by every screen reader
          // (NVDA with Chromium reads none: an a11y QA pass found the end, Tap to play, the notes
          // and a pause said to no one). Emptied first, so the same words are said again.
          let announced = 0;
          function announce(text) {
            const region = $('announce');
            region.textContent = '';
            const token = ++announced;
            setTimeout(() => { if (token === announced) region.textContent = text; }, 50);
          }
          function refused(video, token) {
            if (token !== generation || video !== active() || paused || held || pageHidden) return;
            blocked = true;
            paused = true; updatePause();
            $('tapToPlay').hidden = false;
            announce('Tap to play');
          }
          function unblock() { blocked = false; $('tapToPlay').hidden = true; }
          // Called synchronously from a gesture's handler (a play() after an await is outside the
          // gesture): every video element but the one on screen is played and paused at once,
          // which lets it play later without a gesture (WebKit unlocks an element that played from
          // one), so the next item, the cube and the neighbours need no tap of their own.
          function unlock() {
            const current = active();
            for (const video of [...stage.videos, stage.cube]) {
              if (video === current || !video.paused) continue;
              quietly(video.play());
              halt(video);
            }
          }
          // "Tap to play": the gesture plays what is on screen, inside its handler.
          function resume() {
            unblock();
            unlock();
            paused = false; updatePause();
            applyPause();
          }

          function record(step) { steps.push(step); }
          function describe(result) {
            if (result === END) return { end: true };
            if (result.via) return { transition: result.via.direction, from: result.via.from, to: result.via.to, then: name(result.at) };
            return { item: name(result.at) };
          }

          // Moves to `result` ({at, via} or END), as the rules decided.
          function go(result, outgoing) {
            startTicking();
            // A clip that ended shows its last frame: the forward turn's face is on screen already.
            const ended = active();
            const endedOnFace = !!ended && ended.ended && ended !== stage.cube && !!outgoing
              && ended.getAttribute('src') === outgoing.src && ended.classList.contains('shown');
            const token = ++generation;
            movedAt = performance.now();
            askedStills = new Set();
            // What played stops at once, its picture kept, until the next still covers it: it
            // played on, with its sound, while a slow still loaded (a QA pass).
            for (const video of [...stage.videos, stage.cube]) halt(video);
            paused = false; held = false; unblock(); updatePause();
            clearFallback();
            record(describe(result));
            if (result === END) { finish(); letGo(); return; }
            const from = at && at.story;
            at = result.at;
            if (!result.via) { phase = 'item'; transition = null; enterItem(token); letGo(); return; }
            phase = 'transition';
            transition = result.via;
            turnFrom = from;
            updateChrome();
            const forward = result.via.direction === 'forward';
            const face = forward ? outgoing.lastFrame : outgoing.firstFrame;
            image(item().firstFrame);
            // The cube loads while the face's still does (not while the cube is on screen, a move
            // during a turn: the face covers it first); and after a clip that ended, its video
            // stays on screen as the face until the cube presents. The cube waited for that still,
            // the picture already on screen: on a slow link 1.8 s under a spinner, the cube ready
            // for 0.65 s of it (a QA pass).
            if (playableTransition(result.via) && !stage.cube.classList.contains('shown')) load(stage.cube, result.via.src);
            // A swipe during the turn moves on from the item it lands on: the first stills it
            // would show load now, after the cube's request, not at the landing (a phone QA pass
            // at 400 kb/s: a second swipe in the cube waited 0.8-1.3 s over black for the next
            // story's still).
            for (const to of swipeTargets(true)) image(item(to.at).firstFrame);
            const faceShown = forward && endedOnFace
              ? Promise.resolve().then(() => token === generation && 'none')
              : showStill(face, token, from);
            faceShown.then((ok) => {
              if (!ok) return;
              if (!playableTransition(result.via)) { land(); return; }
              keepUntilPresented(ok);
              const cube = stage.cube;
              load(cube, result.via.src);
              cubeToken = token;
              // A transition that fails to load is skipped: a cut to the item it lands on. One
              // that failed while it preloaded has its error already, and fires no other.
              if (cube.error) { land(); return; }
              if (cube.currentTime !== 0) cube.currentTime = 0;
              cube.onended = () => {
                if (token !== generation || !cube.ended) return;
                endedEvents.push({ kind: 'transition', src: result.via.src });
                land();
              };
              cube.onerror = () => { if (token === generation) land(); };
              // The cube is decoration: one with no frame to show a second after its turn came
              // is cut to the item, which waited behind a spinner for it (a QA pass).
              // Not while nothing may move (a hidden page, a pause, a hold): it waits on, or the turn
              // landed in a hidden tab and marked the next item seen (a QA pass on races).
              const giveUp = () => {
                if (token !== generation || phase !== 'transition' || cube.readyState >= 2) return;
                if (pageHidden || paused || held) { setTimeout(giveUp, PATIENCE.transition); return; }
                land();
              };
              setTimeout(giveUp, PATIENCE.transition);
              whenPresented(cube, token, () => {
                hideVideos(cube);
                cube.classList.add('shown');
                pictureOf = at.story;
                // The incoming item's first frame waits under the cube, its video behind it: put
                // there once a frame has been drawn with the cube shown. Swapped in the task that
                // shows the cube, the new still showed through for a frame where the cube's layer
                // was not yet drawn (a QA pass: a backward turn, its cube loaded at the move,
                // opened on a frame of the story it turns back to).
                afterNextPaint(token, () => showStill(item().firstFrame, token));
                prepare(item());
              });
              play(cube);
            });
            letGo();
          }
          // The transition is over: the item it lands on starts.
          function land() {
            if (phase !== 'transition') return;
            const token = ++generation;
            phase = 'item'; transition = null;
            enterItem(token);
          }
          function finish() {
            phase = 'end'; transition = null;
            for (const video of [...stage.videos, stage.cube]) halt(video);
            // A move that ends the reel mid-turn takes the cube away: the item it was landing on,
            // whose name the header shows, stays under the end card as its first-frame still (a
            // QA pass: a frozen, half-turned cube stayed under "You're all caught up."). Its still
            // goes under the cube a frame after the cube shows: put there now if not yet. So does
            // a picture of another story kept while the move loaded (a QA pass: quick swipes on a
            // slow link left the first story's still under the end card and the last one's name).
            // Half a second at most: a still that does not come leaves the end card over black,
            // until it comes.
            // Another story's picture goes at once (a re-check: it stayed for the half second).
            const token = generation, clip = item();
            if (stage.cube.classList.contains('shown')) {
              const waited = new Promise((resolve) => setTimeout(resolve, 500));
              Promise.race([showStill(clip.firstFrame, token), waited]).finally(() => {
                if (token === generation) showOnly(clip);
              });
            } else if (pictureOf !== null && pictureOf !== at.story) {
              showOnly(clip);
              showStill(clip.firstFrame, token);
            }
            // Caught up only when no story is left with something unseen: the reel ends after the
            // row's last story, and a story before the one opened, or an item tapped past before
            // it showed, may still be new (a QA pass: re-watching the row's first story, seen,
            // said so with two stories never played).
            const text = nav.order.some((index) => !nav.storySeen(manifest.stories[index]))
              ? 'That was the last story.' : "You're all caught up.";
            $('endText').textContent = text;
            $('endcard').hidden = false;
            announce(text);
            // Nothing plays at the end: no pause button (a QA pass: it toggled, doing nothing).
            showPlayingControls(false);
            updateChrome();
            $('closeEnd').focus();
          }

          // The controls of something playing: pause and sound, the tap zones in the Tab order, and
          // the mouse's previous and next buttons.
          // At the end nothing plays and no move moves (a keyboard QA pass: the zones and sound
          // stayed in the Tab cycle there, doing nothing); the zones still take a swipe down.
          function showPlayingControls(shown) {
            $('pause').hidden = !shown;
            $('sound').hidden = !shown;
            for (const zone of ['back', 'forward']) $(zone).tabIndex = shown ? 0 : -1;
            $('previous').hidden = $('next').hidden = !shown;
          }

          // A video element with `clip` loaded (the preloaded one when there is one).
          function prepare(clip) {
            const ready = stage.videos.find((video) => video.getAttribute('src') === clip.src);
            // A preload that failed is tried once more when its turn comes: its error may be a
            // blip long past (a re-check: a clip whose preload met a moment's outage took its
            // turn as stills with the server back). Once: a story's first item is prepared as
            // the cube shows and again as it lands (a re-check: fetched three times).
            if (ready) {
              ready.preload = 'auto';
              if (ready.error && !ready.__retried) {
                ready.__retried = true;
                reload(ready, () => { ready.src = clip.src; });
              }
              return ready;
            }
            // A spare: an empty one, else one that holds no clip preloadAround wanted; never one
            // on screen, whose picture stays until the still covers it (enterItem prepares the
            // clip as its still loads).
            const hidden = stage.videos.filter((video) => video !== front && !video.classList.contains('shown'));
            const others = hidden.length ? hidden : stage.videos.filter((video) => video !== front);
            const spare = others.find((video) => !video.getAttribute('src'))
              || others.find((video) => !warmed.has(video.getAttribute('src'))) || others[0];
            spare.muted = true;
            spare.preload = 'auto';
            load(spare, clip.src);
            return spare;
          }

          function enterItem(token) {
            const clip = item();
            // Seen once something of it is on screen (its first-frame still, or its video's first
            // frame): an item tapped past before either painted stays unseen (a QA pass found
            // items marked seen that never showed).
            // Not in a hidden page: a still that came in there marked its item seen, unwatched; it
            // is marked when the page shows again, if still on screen (a QA pass on races).
            const seen = () => {
              if (token !== generation) return;
              if (pageHidden) { unseenWhileHidden = seen; return; }
              store.set(SEEN + clip.id, '1');
            };
            $('endcard').hidden = true;
            showPlayingControls(true);
            updateChrome();
            warmed.add(clip.src);
            const shown = showStill(clip.firstFrame, token, at.story, seen);
            // The clip loads once its still is in, or once the still has kept it waiting
            // PATIENCE.clip, beside it: it waited for the still's own patience (a QA pass at
            // 800 kb/s: the landing clip was asked for 1.8 s after the last tap). Not at once: on
            // a link shared evenly, a clip loading beside a quick still only made it later.
            if (playable(clip)) {
              const early = setTimeout(() => { if (token === generation && phase === 'item') prepare(clip); }, PATIENCE.clip);
              shown.then(() => clearTimeout(early));
            }
            shown.then((ok) => {
              if (!ok) return;
              if (ok === true) seen();
              if (!playable(clip)) { hideVideos(); startFallback(clip, token, "This clip can't play in this browser."); return; }
              keepUntilPresented(ok);
              $('note').hidden = true;
              const video = prepare(clip);
              // A clip that fails to load or decode (a 404, a dropped connection) takes its turn
              // as its stills too, rather than leaving the viewer on a still that never moves.
              // When the server cannot be reached (the browser is offline, the host is down), it
              // waits instead: the network is down, not the clip (a QA pass: offline, every item
              // took its turn as stills that never loaded, and was marked seen). Which it is, the
              // server says, not the error's code: Chromium gives a refused connection as "format
              // error" and a dropped one as "network" (a QA pass: a dropped connection waited for
              // an `online` event that never came, and a server gone down ran the reel to its
              // end over black). One that stops part-way goes on as its stills from where it
              // stopped (a QA pass: its bar went back to 0 and its first frame showed again).
              const failed = () => {
                if (token !== generation || fallback || offline !== null || probing === token) return;
                const played = front === video && video.currentTime > 0 ? Math.min(video.currentTime, clip.duration) : 0;
                probing = token;  // under the spinner, as any wait (a re-check: 5 s frozen, no word)
                serverAnswers(clip.src).then((answers) => {
                  if (token !== generation || probing !== token) return;
                  probing = null;
                  if (!answers) { waitForNetwork(token, clip.src); return; }
                  if (played === 0) hideVideos();
                  startFallback(clip, token, "This clip couldn't be loaded.", played);
                });
              };
              if (video.error) { failed(); return; }
              video.onerror = failed;
              front = video; frontToken = token;
              video.muted = muted;
              if (video.currentTime !== 0) video.currentTime = 0;
              // A queued `ended` of the element restarted by a move (← on a reel's first item as it
              // ended) is stale: it skipped forward (a QA pass on races). The seek to 0 unended it.
              video.onended = () => {
                if (token !== generation || !video.ended) return;
                endedEvents.push({ kind: 'item', id: clip.id, src: clip.src });
                event('itemDidFinish');
              };
              whenPresented(video, token, () => {
                seen();
                hideVideos(video);
                video.style.zIndex = 4;
                for (const other of stage.videos) if (other !== video) other.style.zIndex = 3;
                video.classList.add('shown');
                pictureOf = at.story;
                preloadAround(token);
              });
              play(video);
            });
          }
          // Where a swipe to the next and to the previous story lead from `at` (from the item a turn
          // lands on, `turning`), those that are not the end.
          function swipeTargets(turning = false) {
            return ['swipeToNextStory', 'swipeToPreviousStory'].map((swipe) => nav.next(at, swipe, turning))
              .filter((to) => to !== END);
          }
          // While an item plays: the next item and the next transition load, and the items a swipe
          // to the next or the previous story lands on are warmed (their firstFrame still, and
          // their clip's metadata and first frame; the stills only with Save-Data on).
          // The swipe targets' clips wait until the next item's clip can play through (or 3 s):
          // Chromium fetches a small clip whole even with preload="metadata", and on a slow link
          // they took the next item's bandwidth, which then started behind a spinner (a QA pass
          // at 1.2 Mb/s: 1.3-1.7 s at every item).
          // An item's last-frame still loads only where a forward turn may start from it (a story's
          // last item before a turn: a tap or a swipe before its clip ended shows it as the turn's
          // face); a turn after a clip that ended starts from the clip's own last frame, and a turn
          // as stills asks for it (startFallback). Every item's was fetched: 789 KB of 9 stills
          // beside 1.71 MB of clips in a full play (a QA pass).
          function preloadAround(token, neighboursNow = false) {
            if (token !== generation || phase !== 'item') return;
            const wanted = [];
            const next = nav.next(at, 'itemDidFinish');
            if (next !== END) {
              wanted.push([item(next.at), 'auto']);
              if (next.via) image(item().lastFrame);
              if (next.via && playableTransition(next.via)) { stage.cube.preload = 'auto'; load(stage.cube, next.via.src); }
            }
            const saveData = !!(navigator.connection && navigator.connection.saveData);
            // The header's picture of each story a move can land on. Every story's was fetched at
            // the start (a scale QA pass: 2000 requests before the tapped story's clip).
            for (const move of ['itemDidFinish', 'swipeToNextStory', 'swipeToPreviousStory']) {
              const to = nav.next(at, move);
              if (to !== END && to.at.story !== at.story) image(headPicture(nav.story(to.at.story)));
            }
            for (const to of swipeTargets()) {
              if (!saveData) wanted.push([item(to.at), 'metadata']);
              else image(item(to.at).firstFrame);
            }
            const keep = warmed = new Set([item().src, ...wanted.map(([clip]) => clip.src)]);
            if (next !== END && next.via) warmed.add(next.via.src);
            let waitFor = null;
            for (const [clip, preload] of wanted) {
              image(clip.firstFrame);
              if (!playable(clip)) continue;
              const ready = stage.videos.find((video) => video.getAttribute('src') === clip.src);
              if (ready) {
                if (ready !== front && preload === 'auto') ready.preload = 'auto';
                if (preload === 'auto' && ready.readyState < 4 && !ready.error) waitFor = ready;
                continue;
              }
              if (preload === 'metadata' && waitFor && !neighboursNow) continue;
              const spare = stage.videos.find((video) => video !== front && !keep.has(video.getAttribute('src')));
              if (!spare) continue;
              spare.muted = true;
              spare.preload = preload;
              load(spare, clip.src);
              if (preload === 'auto') waitFor = spare;
            }
            if (waitFor && !neighboursNow) {
              // Once, whichever comes first.
              let started = false;
              const later = () => { if (!started) { started = true; preloadAround(token, true); } };
              waitFor.addEventListener('canplaythrough', later, { once: true });
              waitFor.addEventListener('error', later, { once: true });
              setTimeout(later, 3000);
            }
          }

          // A clip the browser cannot play still takes its turn: its stills for its duration. One
          // that failed after `played` seconds takes the rest of it, on its last frame, which
          // covers its video before that is hidden.
          function startFallback(clip, token, message, played = 0) {
            showNote(message);
            front = null;
            // Its time runs once its still is on screen, or has failed, or after PATIENCE.still
            // (a QA pass on a slow link: a 404 clip's turn ran out over the item before's still,
            // its own stills arriving late; a re-check: a still the server held stopped the reel
            // for good); meanwhile the spinner shows. What is on screen is its own picture or black.
            const first = played > 0 ? clip.lastFrame : clip.firstFrame;
            fallback = { clip, token, elapsed: played, last: performance.now(), lastShown: played > 0, ready: !first };
            if (first) {
              within(image(first, true), PATIENCE.still, false).then(() => {
                if (fallback && fallback.token === token) fallback.ready = true;
              });
            }
            image(clip.lastFrame);  // shown from half its time
            if (played > 0) showStill(clip.lastFrame, token).then((ok) => { if (ok !== false) hideVideos(); });
            else showOnly(clip);
            // Its turn is a turn like any other: what comes next loads meanwhile (a QA pass: the
            // transition after a clip that failed was requested only when it was due).
            preloadAround(token);
          }
          function clearFallback() { fallback = null; offline = null; $('note').hidden = true; }
          // The note, shown with `text` and said.
          function showNote(text) {
            $('note').textContent = text;
            $('note').hidden = false;
            announce(text);
          }
          // Whether the server answers a request for `src` within serverPatience, whatever the
          // answer (a 404 is an answer): false when the browser is offline or the host cannot be
          // reached. The answer from another origin is opaque (`no-cors`), and only its coming
          // counts. From a file there is no server to lose; under a Content-Security-Policy whose
          // connect-src refuses the request, the page cannot ask, and takes it as an answer (a
          // re-check: a 404 waited for good under "Can't connect"). A server slower than the
          // patience is given twice as long at each ask, up to 40 s, until it answers quickly
          // again (a re-check: one that answered after 6 s was never heard).
          let serverPatience = PATIENCE.server, askRefused = false;
          // Only a policy that blocks: a report-only one refuses nothing (a re-check).
          document.addEventListener('securitypolicyviolation', (e) => {
            if (e.effectiveDirective === 'connect-src' && e.disposition === 'enforce') askRefused = true;
          });
          async function serverAnswers(src) {
            if (location.protocol === 'file:') return true;
            // Offline, the browser has said it: no question to ask (a re-check: under a policy
            // that refused the question, every item took its turn as stills offline).
            if (navigator.onLine === false) return false;
            if (askRefused) return true;
            const controller = new AbortController();
            const timer = setTimeout(() => controller.abort(), serverPatience);
            const asked = performance.now();
            try {
              await fetch(src, { method: 'HEAD', mode: 'no-cors', cache: 'no-store', signal: controller.signal });
              // A quick answer again: back to the first patience (a re-check: a slow spell
              // lengthened every later wait for the rest of the visit).
              if (performance.now() - asked < PATIENCE.server) serverPatience = PATIENCE.server;
              return true;
            } catch (e) {
              if (controller.signal.aborted) serverPatience = Math.min(serverPatience * 2, 40000);
              // The policy's report comes as its own event, after the refusal.
              await new Promise((resolve) => setTimeout(resolve, 50));
              return askRefused;
            } finally {
              clearTimeout(timer);
            }
          }
          // The item on screen waits, under a note, until the connection is back: the browser
          // online again, or the server answering again, asked 2 s after the failed ask, then
          // 4, 8 and every 16 s (a server down or a dropped link fires no `online` event); then
          // it loads again and plays (a move meanwhile goes on as usual).
          function offlineText() {
            return navigator.onLine === false
              ? "You're offline. The story goes on when the connection is back."
              : "Can't connect. The story goes on when the connection is back.";
          }
          function waitForNetwork(token, src) {
            offline = token;
            showNote(offlineText());
            const ask = (delay) => setTimeout(async () => {
              if (!stillWaiting(token)) return;
              if (!(await serverAnswers(src))) { ask(Math.min(delay * 2, 16000)); return; }
              if (stillWaiting(token)) connectionBack();
            }, delay);
            ask(2000);
          }
          // True while the item of generation `token` is on screen and waits for the network.
          function stillWaiting(token) { return offline !== null && offline === token && token === generation && phase === 'item'; }
          // What failed while the server was down is asked for again: the item videos, the cube
          // and the stills (a re-check: a transition and a still that failed during the outage
          // stayed broken for the rest of the visit).
          function connectionBack() {
            for (const video of [...stage.videos, stage.cube]) {
              if (video.error) reload(video, () => video.removeAttribute('src'));
            }
            for (const [src, entry] of [...preloaded]) if (entry.failed || entry.late) preloaded.delete(src);
            clearFallback();
            enterItem(++generation);
          }
          window.addEventListener('offline', () => { if (offline !== null) $('note').textContent = offlineText(); });
          window.addEventListener('online', () => { if (stillWaiting(offline)) connectionBack(); });
          function tickFallback(now) {
            if (!fallback || fallback.token !== generation) return;
            // A frame's time can be a little earlier than the turn's start: no time runs backwards.
            if (!paused && !held && !pageHidden && fallback.ready) fallback.elapsed += Math.max(0, now - fallback.last) / 1000 * rate;
            fallback.last = now;
            if (!fallback.lastShown && fallback.elapsed >= fallback.clip.duration / 2) {
              fallback.lastShown = true;
              showStill(fallback.clip.lastFrame, fallback.token);
            }
            if (fallback.elapsed >= fallback.clip.duration) {
              const clip = fallback.clip;
              fallback = null;
              endedEvents.push({ kind: 'item', id: clip.id, src: clip.src, fallback: true });
              event('itemDidFinish');
            }
          }

          // A navigation event, from a gesture, a key or an `ended`.
          // Every move a gesture asks for comes here, inside the gesture's handler: under "Tap to
          // play", the gesture also unlocks the videos (unlock) before the move plays after an await.
          function event(name) {
            if (phase === 'closed' || opening !== null) return;
            if (blocked) unlock();
            if (phase === 'end') { record({ end: true }); return; }
            // During a transition the move starts from the item it lands on, which is passed
            // over unseen: it never played (it plays, with its transition, next time). Its end
            // (the test hook's itemDidFinish) lands the turn first: that item played, and is seen.
            // Marked at once: the move goes on before its still paints, which marked nothing (a
            // QA pass of the page against StoryreelKit, which marks it).
            const turning = phase === 'transition' && name !== 'itemDidFinish';
            if (phase === 'transition' && name === 'itemDidFinish') { land(); store.set(SEEN + item().id, '1'); }
            else if (phase === 'transition') { phase = 'item'; transition = null; }
            const outgoing = item();
            // The bar of the item a reel ends on stays as the move found it: full after its end,
            // else as far as it played (a QA pass: a swipe past the last story filled the bar of
            // an item never shown).
            endShare = name === 'itemDidFinish' ? 1 : progress();
            go(nav.next(at, name, turning), outgoing);
          }

          // The name a story shows: its displayName, or its handle where that is blank, as render
          // writes it (a QA pass: a hand-made manifest's "" left the header and the labels nameless).
          // Blank is StoryreelKit's rule: white space (U+0085 too, which trim() keeps) and
          // invisible characters only (U+200B, U+FEFF, the Hangul fillers), a QA pass's cases.
          const BLANK_NAME = /^[\p{White_Space}\p{Default_Ignorable_Code_Point}]*$/u;
          function shownName(user) { return BLANK_NAME.test(user.displayName) ? user.handle : user.displayName; }

          // Chrome: progress bars, header, captions.
          // One bar per item while each gets at least 2 px beside its 3 px gaps; a story with more
          // items than fit gets one bar that fills item by item (a QA pass: at 200 items the gaps
          // alone were wider than the frame, and every bar was 0 px wide).
          function barCount(story) {
            const count = story.items.length, width = $('bars').clientWidth;
            return count <= 1 || width === 0 || (width - 3 * (count - 1)) / count >= 2 ? count : 1;
          }
          function updateChrome() {
            if (!at) return;
            const story = nav.story(at.story);
            const bars = $('bars'), layout = `${story.id}/${barCount(story)}`;
            if (bars.dataset.layout !== layout) {
              bars.dataset.layout = layout;
              bars.replaceChildren(...Array.from({ length: barCount(story) }, () => { const bar = document.createElement('span'); bar.className = 'bar'; bar.append(document.createElement('i')); return bar; }));
            }
            setAvatar($('headAvatar'), headPicture(story));
            // Only when it changed: a rewrite of the same text announced it again through the
            // caption's live region (an a11y QA pass). The region is atomic: a move within a
            // story says the name with the count, not "2 of 2" alone (a later a11y QA pass).
            const count = `${at.item + 1} of ${story.items.length}`;
            const name = shownName(story.user);
            if ($('name').textContent !== name) $('name').textContent = name;
            if ($('count').textContent !== count) $('count').textContent = count;
            $('frame').setAttribute('aria-label', `${name}, item ${at.item + 1} of ${story.items.length}`);
            updateSound();
            showLink();
          }
          function progress() {
            if (!at || phase === 'closed') return 0;
            if (phase === 'end') return endShare;
            if (phase === 'transition') return 0;
            if (fallback) return Math.min(1, fallback.elapsed / fallback.clip.duration);
            if (!front || front.getAttribute('src') !== item().src || !front.duration) return 0;
            return Math.min(1, front.currentTime / front.duration);
          }
          // Loading: what is on screen cannot play on (its still, its clip or its data is on the
          // way) for 300 ms while nothing holds it (a pause, a hold, a hidden page, Tap to play):
          // a spinner shows, as the bars stand still, until it plays.
          let loadingSince = null;
          function updateLoading(now) {
            const video = active();
            const wanted = phase === 'transition' ? transition.src : phase === 'item' ? item().src : null;
            const waiting = wanted !== null && !paused && !held && !pageHidden && !blocked && offline === null
              && (fallback ? !fallback.ready
                : !video || video.getAttribute('src') !== wanted || (video.readyState < 3 && !video.ended));
            loadingSince = waiting ? (loadingSince === null ? now : loadingSince) : null;
            const spinning = loadingSince !== null && now - loadingSince > 300;
            if (spinning && $('loading').hidden) announce('Loading');
            $('loading').hidden = !spinning;
            // The picture kept while a move loads belongs to its story: under another story's
            // header, once the wait shows, the frame is black under the spinner instead (a QA
            // pass: quick taps on a slow link kept one user's clip on screen for 3.5 s under the
            // names of the next two). The 300 ms count from the move too: a spinner already up
            // when the move came cleared the picture at once (a re-check: a black flash while a
            // still came in 200 ms). In a turn, the story it turns from is its own too (its face);
            // a third story's picture went on showing while the face loaded (a QA pass: 3 s).
            const ownPicture = pictureOf === at.story || (phase === 'transition' && pictureOf === turnFrom);
            if ((phase === 'item' || phase === 'transition') && !$('loading').hidden && now - movedAt > 300
              && pictureOf !== null && !ownPicture) {
              for (const layer of [...stage.stills, ...stage.videos, stage.cube]) layer.classList.remove('shown');
              pictureOf = null;
              letGoOfClips();
            }
          }
          // The tick runs only while the viewer is open: it ran every frame on a page showing only
          // the story row, for nothing (0.057 of a core in Chromium, against 0.003 for a blank
          // page; a phone's battery). Opening the viewer, or any move, starts it again.
          let ticking = false;
          function startTicking() {
            if (ticking) return;
            ticking = true;
            requestAnimationFrame(tick);
          }
          function tick(now) {
            if (phase === 'closed') { $('loading').hidden = true; loadingSince = null; ticking = false; return; }
            requestAnimationFrame(tick);
            tickFallback(now);
            updateLoading(now);
            const story = nav.story(at.story), count = story.items.length;
            if ($('bars').dataset.layout !== `${story.id}/${barCount(story)}`) updateChrome();
            const fills = $('bars').querySelectorAll('i');
            const current = progress();
            fills.forEach((fill, index) => {
              const share = fills.length !== count ? (at.item + current) / count
                : index < at.item ? 1 : index > at.item ? 0 : current;
              const scale = `scaleX(${share.toFixed(4)})`;
              if (fill.__scale !== scale) { fill.__scale = scale; fill.style.transform = scale; }
            });
          }

          // The label says what a press does; no aria-pressed as well, which with the changing
          // label told a screen reader "Play, pressed" while playing was off (an a11y QA pass).
          function updatePause() {
            const button = $('pause');
            button.setAttribute('aria-label', paused ? 'Play' : 'Pause');
            button.innerHTML = paused ? ICONS.play : ICONS.pause;
          }
          // A clip without sound (`hasAudio: false`) says so on the button, dimmed, as Instagram
          // says "This video has no sound" (a QA pass: it offered "Unmute" as for any clip); so
          // does one whose sound this browser plays silent (AC-3 in Chromium: its `audioCodecs`
          // is one canPlayType refuses; the button said "Mute" over silence). The press still
          // sets the sound for the clips that have it.
          function updateSound() {
            const button = $('sound');
            const clip = phase === 'item' && !!at ? item() : null;
            const why = !clip ? null : clip.hasAudio === false ? 'This clip has no sound'
              : soundPlays(clip) ? null : "This browser can't play this clip's sound";
            const label = (muted ? 'Unmute' : 'Mute') + (why ? ` (${why[0].toLowerCase()}${why.slice(1)})` : '');
            if (button.getAttribute('aria-label') !== label) button.setAttribute('aria-label', label);
            button.title = why || '';
            button.classList.toggle('silent', !!why);
            const icon = muted ? 'muted' : 'sound';
            if (button.dataset.icon !== icon) { button.dataset.icon = icon; button.innerHTML = ICONS[icon]; }
          }
          // What plays now: the element of the current move only. `front` stays the last item's
          // element until the next item's still is in (prepare() keeps it), and a pause and play
          // meanwhile (Space twice, a hold, a hidden tab) played it again, with its sound, under
          // the next item's header (a QA pass on races).
          function active() {
            if (phase === 'transition') return cubeToken === generation ? stage.cube : null;
            return phase === 'item' && frontToken === generation ? front : null;
          }
          function setPaused(value) {
            if (blocked && !value) { resume(); return; }
            paused = value;
            updatePause();
            applyPause();
          }
          function applyPause() {
            const video = active();
            if (!video) return;
            if (paused || held || pageHidden) halt(video); else play(video);
          }

          // Gestures: tap zones (left third back, right two thirds forward), hold, swipe. The zones
          // capture the press and its end is heard on the window, so a release over the header,
          // beside the frame or outside the window ends a hold too, as a touch's does.
          let press = null;
          const zones = $('zones');
          zones.addEventListener('pointerdown', (e) => {
            if (e.button > 0) return;
            // A second finger down (a pointer that is not the primary one) makes the press a
            // pinch or a multi-finger touch: it is no tap, swipe or close, and a hold goes on (a
            // touch QA pass: a pinch's second finger was taken as a new press, and its spread
            // changed story or closed the viewer). A primary pointer is a new press: a touch
            // whose end never came is not left holding every later one (a review).
            if (press && press.id !== e.pointerId && !e.isPrimary) { press.multi = true; return; }
            // The second press of a double click (or tap) on a story in the row, which the viewer
            // opened over within the first, is no tap forward: it skipped the story's first item,
            // marking it seen (a QA pass on races, a phone-sized window). It is a press still: a
            // hold there pauses, and under "Tap to play" it plays (a review).
            const secondOfDoubleClick = !!openingClick && performance.now() - openingClick.at < 500
              && e.clientX >= openingClick.box.left - 24 && e.clientX <= openingClick.box.right + 24
              && e.clientY >= openingClick.box.top - 24 && e.clientY <= openingClick.box.bottom + 24;
            openingClick = null;
            cancelPress();
            // A finger that comes back while another is still down is not primary: the pinch
            // goes on (a review: such a re-grip swiped).
            const multi = e.pointerType === 'touch' && !e.isPrimary;
            const current = press = { id: e.pointerId, x: e.clientX, y: e.clientY, holding: false, secondOfDoubleClick, multi };
            try { zones.setPointerCapture(e.pointerId); } catch (error) { /* not an active pointer */ }
            press.timer = setTimeout(() => { if (press === current) { press.holding = true; held = true; applyPause(); } }, 200);
          });
          // A long press is a hold: no context menu (Android shows one, and cancels the touch,
          // which resumed playback under the finger: a touch QA pass).
          zones.addEventListener('contextmenu', (e) => e.preventDefault());
          const release = (e, cancelled) => {
            if (!press || (e && e.pointerId !== press.id)) return;
            clearTimeout(press.timer);
            const { x, y, holding, secondOfDoubleClick, multi } = press;
            press = null;
            if (holding) { held = false; applyPause(); }
            if (cancelled || multi) return;
            const dx = e.clientX - x, dy = e.clientY - y;
            if (Math.abs(dx) > 40 && Math.abs(dx) > Math.abs(dy)) {
              event(dx < 0 ? 'swipeToNextStory' : 'swipeToPreviousStory');
              return;
            }
            // A swipe down closes the viewer, as in Instagram and Zuck.js; any other vertical drag
            // (a scroll, a pull up) is no tap, with a mouse as with a touch.
            if (dy > 80 && dy > Math.abs(dx)) { close(); return; }
            if (Math.abs(dy) > 40) return;
            // Under "Tap to play" a tap (or a hold) plays the item on screen (see tap).
            if (!blocked && (holding || secondOfDoubleClick)) return;
            const box = $('frame').getBoundingClientRect();
            tap(e.clientX - box.left < box.width / 3 ? 'tapBack' : 'tapForward');
          };
          // A tap on a zone (`tapBack` or `tapForward`), or a click on the mouse's button beside the
          // frame on that side: under "Tap to play" it plays the item on screen, and does not move.
          function tap(name) {
            if (blocked) resume(); else event(name);
          }
          // A press that ends without a release here (the viewer closed, the window losing the
          // focus, the page hidden, the pointer cancelled) ends its hold and is no tap.
          function cancelPress() { release(null, true); }
          window.addEventListener('pointerup', (e) => release(e, false));
          window.addEventListener('pointercancel', (e) => release(e, true));
          window.addEventListener('blur', cancelPress);
          // The page zoomed in lets a pinch in the viewer zoom it out (.viewer.zoomed).
          if (window.visualViewport) {
            const zoomed = () => $('viewer').classList.toggle('zoomed', visualViewport.scale > 1.01);
            visualViewport.addEventListener('resize', zoomed);
            zoomed();
          }
          // A hidden page pauses what plays, as a viewer who looks away expects, and plays it again
          // when shown (unless paused by hand): nothing moves on, or is marked seen, unwatched.
          document.addEventListener('visibilitychange', () => {
            if (document.hidden) cancelPress();
            pageHidden = document.hidden;
            if (!pageHidden && unseenWhileHidden) { const mark = unseenWhileHidden; unseenWhileHidden = null; mark(); }
            if (fallback) fallback.last = performance.now();
            if (phase === 'item' || phase === 'transition') applyPause();
          });
          // A pause from outside the page (a media key, a headset unplugged, the system) shows as
          // one: the button says Play, and Space or the button plays again (a QA pass: the picture
          // froze under a Pause button, and the first Space only paused). A play from outside
          // (a media key) unpauses likewise. The page's own pauses are marked (halt).
          for (const video of [...stage.videos, stage.cube]) {
            video.addEventListener('pause', () => {
              if (video.__pausedByPage) { video.__pausedByPage = false; return; }
              // Likewise a pause a play overtook: the picture moves.
              if (!video.paused) return;
              // Not a pause by anyone: the end, or a load that failed (Chromium pauses a video
              // whose play() was pending when its error came: offline, that stuck the item paused).
              if (video.ended || video.error || offline !== null || video !== active() || paused || held || pageHidden) return;
              paused = true; updatePause();
            });
            // A play event is queued: one the page's own pause overtook (Space pressed as the
            // item started, a CI run) is no play any more, or it unpaused the page over a
            // stopped picture.
            video.addEventListener('play', () => {
              if (video.paused) return;
              if (video === active() && paused && !held && !blocked) { paused = false; updatePause(); }
            });
          }
          // Keyboard activation of the zone buttons (a pointer's click is handled above).
          $('back').addEventListener('click', (e) => { if (e.detail === 0) event('tapBack'); });
          $('forward').addEventListener('click', (e) => { if (e.detail === 0) event('tapForward'); });
          // The mouse's buttons beside the frame tap the zone on their side. A press leaves the focus
          // where it was (the frame, or a zone), so Space still pauses after a click on one.
          for (const [id, name] of [['previous', 'tapBack'], ['next', 'tapForward']]) {
            $(id).addEventListener('mousedown', (e) => e.preventDefault());
            $(id).addEventListener('click', () => tap(name));
          }
          // Under "Tap to play", a click anywhere else on the viewer (the header, the bars) plays.
          $('frame').addEventListener('click', (e) => { if (blocked && !e.target.closest('button')) resume(); });
          // A press of Pause (the button, or Space) is said: the button's new label is not, when
          // the focus is elsewhere (an a11y QA pass).
          function togglePause() {
            setPaused(!paused);
            announce(paused ? 'Paused' : 'Playing');
          }
          $('pause').addEventListener('click', togglePause);
          // The sound button, and `m` (YouTube's key), which also says what it did: the button's
          // new label is read only where it has the focus.
          function toggleSound(said) {
            muted = !muted;
            try { sessionStorage.setItem(UNMUTED, muted ? '0' : '1'); } catch (e) { /* private mode */ }
            for (const video of stage.videos) video.muted = muted;
            updateSound();
            if (said) announce(muted ? 'Muted' : 'Sound on');
            if (blocked) resume();
          }
          $('sound').addEventListener('click', () => toggleSound(false));
          $('close').addEventListener('click', close);
          $('closeEnd').addEventListener('click', close);
          // A mouse's wheel scrolls the row sideways while the row has further to go, then the
          // page as before (a desktop QA pass: a vertical wheel over a row of 36 stories did
          // nothing; only a trackpad's sideways swipe, Shift and the wheel, or the scrollbar did).
          $('row').addEventListener('wheel', (e) => {
            const row = $('row');
            if (e.ctrlKey || Math.abs(e.deltaX) >= Math.abs(e.deltaY)) return;
            const before = row.scrollLeft;
            row.scrollLeft += e.deltaMode === 1 ? e.deltaY * 40 : e.deltaMode === 2 ? e.deltaY * row.clientWidth : e.deltaY;
            if (row.scrollLeft !== before) e.preventDefault();
          }, { passive: false });
          // This bundle's items only (a QA pass: it cleared every bundle's on the origin, and threw
          // where storage is blocked, in a sandboxed frame).
          $('reset').addEventListener('click', () => {
            for (const story of manifest.stories) for (const item of story.items) store.remove(SEEN + item.id);
            renderRow();
          });
          // Seen marks another tab of this origin wrote (or its reset) reach the row without a reload
          // (a QA pass: a second tab's rings stayed stale until one): its rings and names are drawn
          // again, in the order it shows, as a close does, the focus kept on its story. Not while
          // the viewer is open or opening: its close draws the row.
          window.addEventListener('storage', (e) => {
            if (rowOrder === null || phase !== 'closed') return;
            if (e.key !== null && !(e.key.startsWith(SEEN) && manifest.stories.some(
              (story) => story.items.some((item) => SEEN + item.id === e.key)))) return;
            const focused = document.activeElement && document.activeElement.closest('#row .story');
            renderRow(true);
            const again = focused && rowButton(focused.dataset.story);
            if (again) again.focus({ preventScroll: true });
          });
          // The keys that move, and the event each is; ↓ and ↑ are the swipes' (an a11y QA pass:
          // only a drag skipped a story).
          const KEY_MOVES = Object.assign(Object.create(null), {
            ArrowRight: 'tapForward', ArrowLeft: 'tapBack', ArrowDown: 'swipeToNextStory', ArrowUp: 'swipeToPreviousStory',
          });
          // A click on the black beside the frame leaves the focus in the viewer: it went to the
          // page's body, out of the modal dialog, where a screen reader lost its place (a QA pass).
          $('viewer').addEventListener('mousedown', (e) => { if (e.target === $('viewer')) e.preventDefault(); });
          document.addEventListener('keydown', (e) => {
            if (phase === 'closed') return;
            // Keys with Alt, Ctrl or Meta are the browser's (Alt+← is Back) and the system's.
            if (e.altKey || e.ctrlKey || e.metaKey) return;
            // A held Enter on a focused button would click it again at every repeat ("Next item"
            // ran through the stories); one press, one click.
            if (e.repeat && e.key === 'Enter') { e.preventDefault(); return; }
            if (e.key === 'Tab') {
              // Focus stays inside the viewer while it is open (Shift+Tab goes backward).
              const focusable = [...$('viewer').querySelectorAll('button')]
                .filter((b) => b.offsetParent !== null && b.tabIndex >= 0);
              const index = focusable.indexOf(document.activeElement);
              e.preventDefault();
              // None while the viewer opens (a QA pass: a TypeError); the frame takes focus then.
              if (focusable.length === 0) return;
              // From the frame (focused at the opening), Shift+Tab goes to the last button.
              const next = index < 0 ? (e.shiftKey ? focusable.length - 1 : 0)
                : (index + (e.shiftKey ? -1 : 1) + focusable.length) % focusable.length;
              focusable[next].focus();
              return;
            }
            // The player's keys are plain ones: Shift with them is left to the browser too.
            if (e.shiftKey) return;
            const isSpace = e.key === ' ' || e.key === 'Spacebar';
            // A held key's auto-repeat moves nothing: one press is one move (held, → ran through stories).
            const isMute = e.key === 'm' || e.key === 'M';
            if (e.repeat && (KEY_MOVES[e.key] || isSpace || isMute)) { e.preventDefault(); return; }
            if (KEY_MOVES[e.key]) { e.preventDefault(); event(KEY_MOVES[e.key]); }
            // `m` sets the sound as the sound button does, while that button shows (not at the end).
            else if (isMute) { e.preventDefault(); if (!$('sound').hidden) toggleSound(true); }
            // Space on a focused button of the header or the end card presses that button, as on
            // any button (it paused instead: Close and Unmute could not be pressed with Space).
            // The tap zones are buttons too, focused by every tap on the picture: there Space
            // pauses, or it would move on after the first tap.
            else if (isSpace && !(e.target instanceof HTMLButtonElement && !e.target.classList.contains('zone'))) {
              e.preventDefault(); togglePause();
            }
            else if (e.key === 'Escape') { e.preventDefault(); close(); }
          });

          // The story row: avatars with rings, in play order (seen stories last), or with
          // `keepOrder` in the order it shows, when it shows the same stories (not with a story id
          // given twice).
          function renderRow(keepOrder) {
            const order = new Navigator(manifest, isSeen, () => true);
            const row = $('row');
            const byId = new Map(order.order.map((index) => [manifest.stories[index].id, index]));
            const shown = keepOrder ? [...row.querySelectorAll('.story')].map((button) => byId.get(button.dataset.story)) : [];
            const kept = byId.size === order.order.length && shown.length === order.order.length
              && new Set(shown).size === shown.length && shown.every((index) => index !== undefined);
            rowOrder = kept ? shown : order.order;
            row.replaceChildren(...rowOrder.map((index) => {
              const story = manifest.stories[index];
              const seen = order.storySeen(story);
              const li = document.createElement('li');
              const button = document.createElement('button');
              button.type = 'button';
              button.className = `story ${seen ? 'seen' : 'unseen'}`;
              button.dataset.story = story.id;
              button.setAttribute('aria-label', `${shownName(story.user)} (@${story.user.handle})${seen ? ', seen' : ', new'}`);
              const ring = document.createElement('span');
              ring.className = 'ring';
              const avatar = document.createElement('img');
              avatar.alt = '';
              // Fetched as it scrolls near (set before its src): a row of 2000 stories fetched
              // every picture at once, and the tapped story's clip queued behind them (a scale
              // QA pass: 12 s to the first frame at 50 ms a request).
              avatar.loading = 'lazy';
              setAvatar(avatar, headPicture(story));
              ring.append(avatar);
              const handle = document.createElement('span');
              handle.className = 'handle';
              handle.dir = 'auto';
              handle.textContent = story.user.handle;
              button.append(ring, handle);
              // The click is the gesture that lets the videos play (unlock): open() plays after an await.
              button.addEventListener('click', (e) => {
                // A pointer's click: on which story's button and when, so the second press of a
                // double click there does not tap the viewer it opened (see the zones'
                // pointerdown). The button's box, not the first press's point: a thumb's second
                // tap lands 20 to 40 px away (a touch QA pass).
                openingClick = e.detail > 0 ? { box: button.getBoundingClientRect(), at: performance.now() } : null;
                unlock(); open(story.id, button);
              });
              li.append(button);
              return li;
            }));
            rove((rowStop !== null && rowButton(rowStop)) || row.querySelector('.story'));
            $('empty').hidden = order.order.length > 0;
          }
          // The row is one tab stop (a roving tabindex, the ARIA pattern for a set of buttons): Tab
          // reaches the story focused last (the first at a load), ← and → go to the story on the
          // left and on the right, Home and End to the first and the last (a QA pass: 48 stories
          // took 48 Tabs). The row is laid out left to right whatever its names' direction, as
          // the tap zones are, so ← is the story on the left.
          let rowStop = null;
          function rove(button) {
            if (!button) return;
            rowStop = button.dataset.story;
            for (const story of $('row').querySelectorAll('.story')) story.tabIndex = story === button ? 0 : -1;
          }
          $('row').addEventListener('focusin', (e) => { if (e.target.classList.contains('story')) rove(e.target); });
          $('row').addEventListener('keydown', (e) => {
            if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || !e.target.classList.contains('story')) return;
            const stories = [...$('row').querySelectorAll('.story')];
            const index = stories.indexOf(e.target);
            const to = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: stories.length - 1 }[e.key];
            if (to === undefined) return;
            e.preventDefault();
            if (stories[to]) stories[to].focus();
          });

          async function open(storyId, opener) {
            // The viewer plays in the row's order, which stays while the page is open: a story
            // opened from it is followed by the stories to its right, and a move back goes to the
            // one on its left (a QA pass: the row kept its order at a close, the viewer sorted seen
            // stories last again, and re-watching the row's first story skipped the unseen ones
            // beside it).
            nav = new Navigator(manifest, isSeen, () => reducedMotion.matches, rowOrder);
            openedFrom = opener || null;
            steps.length = 0; endedEvents.length = 0;
            const start = nav.start(Math.max(0, nav.order.findIndex((i) => manifest.stories[i].id === storyId)));
            if (start === END) return;
            at = start.at; phase = 'item';
            // Its history entry at once, not once its first still is in: a Back while that
            // loads left the page (a re-check). It names the story (see showLink).
            enterViewerEntry();
            startTicking();
            // Every opening plays: a pause or hold from the last viewing does not carry over.
            paused = false; held = false; unblock(); updatePause();
            const token = ++generation;
            record(describe(start));
            // The viewer opens on the first still, never on black. Until it is open, events
            // wait: a key pressed meanwhile played stories behind a viewer never shown (a QA pass).
            opening = token;
            // Meanwhile the tapped story's ring turns, as Instagram's does: on a slow link the
            // tap showed nothing for up to PATIENCE.still (a QA pass).
            const busy = opener && opener.isConnected ? opener : null;
            if (busy) { busy.classList.add('opening'); busy.setAttribute('aria-busy', 'true'); }
            await still(item().firstFrame);
            if (busy) { busy.classList.remove('opening'); busy.removeAttribute('aria-busy'); }
            if (opening === token) opening = null;
            if (token !== generation) return;
            $('viewer').classList.add('open');
            setBehindViewer(true);
            document.body.style.overflow = 'hidden';
            updateSound();
            enterItem(token);
            $('frame').focus({ preventScroll: true });
          }
          // The page behind the open viewer is inert: a screen reader's cursor stayed free to walk
          // the row behind the modal dialog (an a11y QA pass).
          function setBehindViewer(inert) {
            for (const element of document.body.children) if (element !== $('viewer')) element.inert = inert;
          }
          // The open viewer is a history entry of its own, as Zuck.js's `backNative` makes it: a
          // phone's Back (or the browser's) closes it, where it left the page. Closed another way,
          // the viewer takes its entry back, so one Back then leaves. An opening while that step
          // back is under way adds its entry once the step is done. Forward onto the entry of a
          // viewer closed since steps back over it (it left an entry that did nothing, so the
          // next Back stayed: a re-check), and a reload with the viewer open finds its entry a
          // plain one.
          let viewerEntry = false, backPending = false, skippingBack = false;
          if (history.state && history.state.storyreelViewer) {
            try { history.replaceState(null, ''); } catch (e) { /* sandboxed */ }
          }
          function enterViewerEntry() {
            if (viewerEntry || backPending) return;
            try {
              // The entry under the viewer's is the row's: a link it was opened at is taken off it,
              // so that a close or a Back lands on a URL naming no story.
              if (location.hash.startsWith(LINK)) history.replaceState(history.state, '', pageUrl(''));
              history.pushState({ storyreelViewer: true }, '', pageUrl(storyLink()));
              viewerEntry = true;
            } catch (e) { /* sandboxed */ }
          }
          // Deep links, as AMP stories' and Instagram's share links: while the viewer is open, the
          // URL's fragment is `#story=ID` (the story on screen, URL-encoded), kept up to date with
          // replaceState (no entry of its own: Back still closes the viewer, then leaves), and a
          // closed viewer's URL names none; opened at such a URL (a reload mid-story, a copied
          // link), the page opens that story as a tap on it in the row does (a QA pass: a reload
          // left the viewer closed, and no story could be linked to). The fragment is only ever
          // compared with the manifest's story ids, never put into the page.
          const LINK = '#story=';
          function pageUrl(hash) {
            const href = location.href, cut = href.indexOf('#');
            return (cut < 0 ? href : href.slice(0, cut)) + hash;
          }
          function storyLink() { return at && phase !== 'closed' ? LINK + encodeURIComponent(nav.story(at.story).id) : ''; }
          function showLink() {
            // A step back under way lands on the row's entry, which names no story; an opening
            // meanwhile pushes its entry, with its link, once it lands.
            if (backPending) return;
            const hash = storyLink();
            if (location.hash === hash || (hash === '' && !location.hash.startsWith(LINK))) return;
            try { history.replaceState(history.state, '', pageUrl(hash)); } catch (e) { /* sandboxed */ }
          }
          // The story the URL links to, if the row shows it (it has items), or null.
          function linkedStory() {
            if (!location.hash.startsWith(LINK)) return null;
            let id = null;
            try { id = decodeURIComponent(location.hash.slice(LINK.length)); } catch (e) { return null; }
            const story = id ? manifest.stories.find((s) => s.id === id) : null;
            return story && story.items.length > 0 && rowButton(story.id) ? story.id : null;
          }
          function leaveViewerEntry() {
            if (!viewerEntry) return;
            viewerEntry = false; backPending = true;
            history.back();
          }
          window.addEventListener('popstate', (e) => {
            if (skippingBack) {
              skippingBack = false;
            } else if (backPending) {
              backPending = false;
              if (phase !== 'closed') enterViewerEntry();
            } else if (viewerEntry) {
              viewerEntry = false;
              close();
            } else if (e.state && e.state.storyreelViewer) {
              skippingBack = true;
              history.back();
            }
          });
          function close() {
            // The story last on screen (the end card's too), which the row's focus goes back to.
            const watched = at && phase !== 'closed' ? nav.story(at.story).id : null;
            leaveViewerEntry();
            generation++;
            opening = null;
            cancelPress();
            phase = 'closed'; at = null; transition = null; fallback = null; offline = null; probing = null; pictureOf = null;
            showLink();
            $('note').hidden = true;
            unblock();
            hideVideos();
            // Nothing loads for a closed viewer.
            askedStills = new Set();
            letGo();
            for (const still of stage.stills) still.classList.remove('shown', 'front');
            $('viewer').classList.remove('open');
            setBehindViewer(false);
            $('endcard').hidden = true;
            showPlayingControls(true);
            document.body.style.overflow = '';
            // The row keeps its order while the page is open, its rings and names updated, and the
            // focus goes to the story last watched (a keyboard QA pass: the row re-sorted seen
            // stories to its end, the story opened from moved there, and the focus with it, the
            // next Tab leaving the page). A reload sorts it again.
            renderRow(true);
            const last = [watched, openedFrom && openedFrom.dataset.story].find((id) => id && rowButton(id));
            if (last) rowButton(last).focus();
          }
          function rowButton(storyId) {
            return document.querySelector(`.story[data-story="${CSS.escape(storyId)}"]`);
          }

          // Test hooks (docs/playing.md: The player page).
          window.storyreelPlayer = {
            ready: false,
            state() {
              const clip = at && phase !== 'closed' ? item() : null;
              const video = active();
              return {
                open: phase !== 'closed', phase, story: clip ? nav.story(at.story).id : null,
                itemIndex: clip ? at.item : null, item: clip ? clip.id : null,
                src: phase === 'transition' ? transition.src : clip ? clip.src : null,
                transition: transition ? { direction: transition.direction, from: transition.from, to: transition.to } : null,
                currentTime: video ? video.currentTime : fallback ? fallback.elapsed : null,
                paused: paused || held || pageHidden, blocked, muted, playbackRate: rate, progress: progress(),
                playable: clip ? playable(clip) : null, loading: !$('loading').hidden, offline: offline !== null,
              };
            },
            setPlaybackRate(value) {
              rate = Number(value) || 1;
              for (const video of [...stage.videos, stage.cube]) { video.playbackRate = rate; video.defaultPlaybackRate = rate; }
            },
            steps() { return steps.slice(); },
            endedEvents() { return endedEvents.slice(); },
            event,
            open(storyId) { const button = document.querySelector(`.story[data-story="${CSS.escape(storyId)}"]`); return open(storyId, button); },
            close,
          };

          // True when `m` holds, with their types, the fields this page reads. A served body that is
          // JSON but not such a manifest (null, {"version": 1}, a story without its user) plays the
          // embedded copy, as one that is not JSON does (a QA pass: a TypeError left a blank page).
          // Its paths must be plain (README: The manifest; ManifestPath.isPlain in StoryreelKit),
          // so that joined to the page's URL each stays in the bundle: a served manifest naming
          // another site's URL, `/etc/passwd`, `name:x/a.mov` (a scheme) or `%2e%2e/x` was fetched
          // from there (a QA pass). An item's src may start with ../ steps (a --reference bundle),
          // in a served manifest only where the page's own copy, which render wrote with it, names
          // the same src: a hand-edited manifest.json sent the page to any path on the server
          // (`../../../../etc/passwd`, another bundle's clips; a QA pass).
          const PLAIN = /^(?:[^/.][^/]*|\.[^/.][^/]*|\.\.[^/]+)(?:\/(?:[^/.][^/]*|\.[^/.][^/]*|\.\.[^/]+))*$/;
          function isPlain(path, parentSteps) {
            if (typeof path !== 'string' || path.startsWith(' ') || path.endsWith(' ')) return false;
            let rest = path;
            while (parentSteps && rest.startsWith('../')) rest = rest.slice(3);
            return PLAIN.test(rest) && !/[\u0000-\u001f\u007f#?%\\]/.test(rest)
              && (rest !== path || !rest.split('/')[0].includes(':'));
          }
          const isObject = (v) => v !== null && typeof v === 'object';
          // The first of those fields that is not as the page reads it, as `stories[0].isRead`
          // (or the whole manifest's `version`), or null when every one is.
          function unreadField(m, referenced = null) {
            const text = (v) => typeof v === 'string';
            const itemSource = (v) => isPlain(v, false) || (isPlain(v, true) && (referenced === null || referenced.has(v)));
            const plain = (v) => isPlain(v, false);
            const optionalPlain = (v) => v === undefined || v === null || plain(v);
            // A codecs string goes into canPlayType's type (a QA pass: an object there threw, and
            // the item stayed on its still).
            const optionalText = (v) => v === undefined || v === null || text(v);
            const first = (list, name, checks) => {
              for (const [index, value] of list.entries()) {
                if (!isObject(value)) return `${name}[${index}]`;
                for (const [field, ok] of checks) if (!ok(value)) return `${name}[${index}].${field}`;
              }
              return null;
            };
            if (!isObject(m)) return 'the manifest';
            if (m.version !== 1) return 'version';
            if (!Array.isArray(m.stories)) return 'stories';
            if (!Array.isArray(m.transitions)) return 'transitions';
            const story = first(m.stories, 'stories', [
              ['id', (s) => text(s.id)], ['items', (s) => Array.isArray(s.items)], ['isRead', (s) => typeof s.isRead === 'boolean'],
              ['user', (s) => isObject(s.user)], ['user.handle', (s) => text(s.user.handle)],
              ['user.displayName', (s) => text(s.user.displayName)], ['user.avatar', (s) => optionalPlain(s.user.avatar)],
            ]);
            if (story) return story;
            for (const [index, s] of m.stories.entries()) {
              const item = first(s.items, `stories[${index}].items`, [
                ['id', (i) => text(i.id)], ['src', (i) => itemSource(i.src)],
                ['duration', (i) => typeof i.duration === 'number' && Number.isFinite(i.duration)],
                ['poster', (i) => plain(i.poster)], ['thumbnail', (i) => plain(i.thumbnail)],
                ['firstFrame', (i) => optionalPlain(i.firstFrame)], ['lastFrame', (i) => optionalPlain(i.lastFrame)],
                ['codecs', (i) => optionalText(i.codecs)], ['codec', (i) => optionalText(i.codec)],
                ['audioCodecs', (i) => optionalText(i.audioCodecs)],
              ]);
              if (item) return item;
            }
            return first(m.transitions, 'transitions', [
              ['from', (t) => text(t.from)], ['to', (t) => text(t.to)], ['src', (t) => plain(t.src)],
              ['direction', (t) => t.direction === 'forward' || t.direction === 'backward'], ['codecs', (t) => optionalText(t.codecs)],
            ]);
          }
          const isReadable = (m, referenced = null) => unreadField(m, referenced) === null;
          const isNewer = (m) => isObject(m) && Number.isInteger(m.version) && m.version > 1;

          // Opened at a folder's URL without its trailing / (`…/reel`), every relative URL points
          // one folder up: the row and every clip failed, a black reel of notes and 24 console
          // 404s (a QA pass; static servers redirect, CloudFront and many object stores do not).
          // A last segment without a dot is taken for the folder and the page goes to it with its
          // /, as a static server would, once: a server that takes the / off again (a "no
          // trailing slash" rule) finds the path tried already, and the page says so instead.
          function leftForItsFolder() {
            if (location.protocol !== 'http:' && location.protocol !== 'https:') return false;
            const path = location.pathname, SLASHED = 'storyreel.slashed';
            let tried = null;
            try { tried = sessionStorage.getItem(SLASHED); sessionStorage.removeItem(SLASHED); } catch (e) { /* blocked */ }
            if (path.endsWith('/') || path.slice(path.lastIndexOf('/') + 1).includes('.')) return false;
            if (tried !== path) {
              try {
                sessionStorage.setItem(SLASHED, path);
                location.replace(path + '/' + location.search + location.hash);
                return true;
              } catch (e) { /* no storage, so no going round: the note below */ }
            }
            $('slash').textContent = `This page is at ${path}, without the / at its end, so its stories cannot load from here: open ${path}/ instead.`;
            $('slash').hidden = false;
            return false;
          }

          async function main() {
            $('needsScript').remove();
            if (leftForItsFolder()) return;
            manifest = JSON.parse($('manifest').textContent);
            if (location.protocol === 'http:' || location.protocol === 'https:') {
              let refused = null;
              try {
                const controller = new AbortController();
                const timer = setTimeout(() => controller.abort(), PATIENCE.manifest);
                const response = await fetch('manifest.json', { cache: 'no-cache', signal: controller.signal });
                if (response.ok) {
                  const served = await response.json();
                  const referenced = new Set(isReadable(manifest)
                    ? manifest.stories.flatMap((s) => s.items.map((i) => i.src)).filter((src) => src.startsWith('../')) : []);
                  const field = unreadField(served, referenced);
                  if (field === null || isNewer(served)) manifest = served;
                  else refused = `${field} is missing or not what this player reads`;
                } else refused = `the server answered ${response.status}`;
                clearTimeout(timer);
              } catch (e) {
                // The embedded copy: an error, not JSON, or no answer in time.
                refused = e instanceof SyntaxError ? 'it is not JSON'
                  : e.name === 'AbortError' ? `no answer within ${PATIENCE.manifest / 1000} s` : `it could not be fetched: ${e}`;
              }
              // Said in the console: a QA pass edited manifest.json by hand, left out an isRead, and
              // nothing said why the edit did nothing.
              if (refused) console.warn(`storyreel: manifest.json was not played (${refused}); the page plays the copy embedded in it.`);
            }
            // A manifest of a version this page does not read is not guessed at (StoryreelKit
            // refuses it too): newer than 1, or not a whole number from 1 on (0, -1, 0.5).
            if (!isReadable(manifest)) {
              $('empty').textContent = isNewer(manifest)
                ? `This bundle's manifest is version ${manifest.version}, newer than this player reads (1).`
                : isObject(manifest) && manifest.version === 1
                  ? "This bundle's manifest is not one this player reads."
                  : "This bundle's manifest has no version this player reads (1).";
              $('empty').hidden = false;
              window.storyreelPlayer.ready = true;
              return;
            }
            // Held between 1:4 and 4:1: a canvas of 2x8192 (which the schema and --size allow) made
            // the frame 0 px wide, and its close button with it (a QA pass); the picture is cut
            // to the frame as on any screen of another shape.
            const canvas = manifest.canvas, ratio = isObject(canvas) ? canvas.width / canvas.height : NaN;
            if (Number.isFinite(ratio) && ratio > 0) {
              $('frame').style.setProperty('--canvas-ratio', String(Math.min(4, Math.max(0.25, ratio))));
            }
            updatePause(); updateSound();
            renderRow();
            startTicking();
            // A link to a story opens it, as a tap on it in the row does (without the tap's
            // gesture: where autoplay is refused, "Tap to play" waits).
            const linked = linkedStory();
            if (linked !== null) open(linked, rowButton(linked));
            window.storyreelPlayer.ready = true;
          }
          main();
        })();
        </script>
        </body>
        </html>

        """#
}
