// Sounds, only when the player turns them on (Settings: Sounds, the "sounds" class on <html>;
// off by default). Drawn with the Web Audio API, no sound files: a soft tick as a card is placed,
// a riffle and the ticks of a deal at a redeal, a chime at a win, and the ticks of the deal
// when a new deal opens (if the browser lets a page make sound before a press).
// It reads only the board's data attributes before and after each swap, as motion.js does, so
// it plays under reduced motion too and never delays an input.
"use strict";
(() => {
  const html = document.documentElement;
  let audio = null;

  function on() {
    return html.classList.contains("sounds");
  }

  function context() {
    if (!audio) {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return null;
      audio = new Context();
    }
    if (audio.state === "suspended") audio.resume();
    return audio;
  }

  // A short burst of filtered noise: the sound of a card landing on felt.
  function tick(at, { gain = 0.22, pitch = 1800, length = 0.05 } = {}) {
    const ctx = context();
    if (!ctx) return;
    const frames = Math.floor(ctx.sampleRate * length);
    const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < frames; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 3;
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    const filter = ctx.createBiquadFilter();
    filter.type = "bandpass";
    filter.frequency.value = pitch;
    filter.Q.value = 0.9;
    const level = ctx.createGain();
    level.gain.value = gain;
    source.connect(filter).connect(level).connect(ctx.destination);
    source.start(ctx.currentTime + at);
  }

  function tone(at, frequency, length) {
    const ctx = context();
    if (!ctx) return;
    const osc = ctx.createOscillator();
    osc.type = "triangle";
    osc.frequency.value = frequency;
    const level = ctx.createGain();
    const start = ctx.currentTime + at;
    level.gain.setValueAtTime(0.0001, start);
    level.gain.exponentialRampToValueAtTime(0.16, start + 0.02);
    level.gain.exponentialRampToValueAtTime(0.0001, start + length);
    osc.connect(level).connect(ctx.destination);
    osc.start(start);
    osc.stop(start + length + 0.05);
  }

  const SOUNDS = {
    place: () => tick(0),
    deal: () => {
      for (let i = 0; i < 12; i += 1) tick(i * 0.045, { gain: 0.12, pitch: 2200 + (i % 3) * 300, length: 0.035 });
    },
    redeal: () => {
      for (let i = 0; i < 18; i += 1) tick(i * 0.022, { gain: 0.1, pitch: 3000, length: 0.025 });
      SOUNDS.deal.call(null);
    },
    win: () => [523.25, 659.25, 783.99, 1046.5].forEach((f, i) => tone(i * 0.14, f, 0.6)),
  };

  function play(kind) {
    if (!on() || !SOUNDS[kind]) return;
    try {
      SOUNDS[kind]();
    } catch (error) {
      // No audio here (a locked-down browser): the game goes on silently.
    }
    html.dataset.sound = kind; // for tests: the last sound asked for
  }

  let before = null;
  document.addEventListener("htmx:beforeSwap", (event) => {
    const board = document.getElementById("board");
    before = board && event.detail && event.detail.target === board ? { ...board.dataset } : null;
  });
  document.addEventListener("htmx:afterSettle", () => {
    const board = document.getElementById("board");
    const was = before;
    before = null;
    if (!board || !was) return;
    const now = board.dataset;
    if (was.status === "playing" && now.status === "won") play("win");
    else if (now.redealsLeft !== was.redealsLeft && Number(now.moves) > Number(was.moves)) play("redeal");
    else if (Number(now.moves) !== Number(was.moves)) play("place");
  });

  // A new deal opens: its ticks, where the browser lets a page sound before a press.
  window.addEventListener("load", () => {
    const board = document.getElementById("board");
    if (!on() || !board || board.dataset.moves !== "0") return;
    const ctx = context();
    if (ctx && ctx.state === "running") play("deal");
  });

  window.lucieSounds = { play };
})();
