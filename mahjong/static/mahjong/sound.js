// The site's sounds, synthesised with the Web Audio API: no audio files, nothing to
// download. Off until the player turns Sound on in Settings (localStorage "mj-sound" =
// "on"). An ES module: callers `import { MahjongSound } from "./sound.js"` and call
// `MahjongSound.play("pair")`, with the names select, pair, wrong, shuffle, win, count (a
// 3-2-1 tick) and go. The same object is window.MahjongSound, for the tests and the console
// (a test replaces its `play` to hear what the board plays).
//
// Browsers start audio only after a user gesture: the context is made (or resumed) on
// the first pointer or key press once sound is on, so a race's countdown, which arrives
// from the socket and not from a click, can still be heard.
let context = null;
let master = null;
let noise = null;

function enabled() {
  try { return window.localStorage.getItem("mj-sound") === "on"; } catch (e) { return false; }
}

function audio() {
  if (!context) {
    let Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
    master = context.createGain();
    master.gain.value = 0.5;
    master.connect(context.destination);
  }
  if (context.state === "suspended") context.resume();
  return context;
}

// A short note: `type` wave from `f` Hz (gliding to `to`), `at` s from now, for `dur`
// s, at `gain`, with a fast attack and an exponential fall (no clicks).
function tone(ac, note) {
  let start = ac.currentTime + (note.at || 0);
  let dur = note.dur || 0.12;
  let osc = ac.createOscillator();
  let env = ac.createGain();
  osc.type = note.type || "sine";
  osc.frequency.setValueAtTime(note.f, start);
  if (note.to) osc.frequency.exponentialRampToValueAtTime(note.to, start + dur);
  envelope(env.gain, start, dur, note.gain || 0.2);
  osc.connect(env);
  env.connect(master);
  osc.start(start);
  osc.stop(start + dur + 0.03);
}

// A tile's "tock": a burst of noise through a band-pass filter.
function knock(ac, note) {
  if (!noise) {
    noise = ac.createBuffer(1, Math.floor(ac.sampleRate * 0.08), ac.sampleRate);
    let data = noise.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
  }
  let start = ac.currentTime + (note.at || 0);
  let source = ac.createBufferSource();
  let filter = ac.createBiquadFilter();
  let env = ac.createGain();
  source.buffer = noise;
  filter.type = "bandpass";
  filter.frequency.value = note.f || 2400;
  filter.Q.value = 6;
  envelope(env.gain, start, note.dur || 0.05, note.gain || 0.6);
  source.connect(filter);
  filter.connect(env);
  env.connect(master);
  source.start(start);
  source.stop(start + 0.08);
}

function envelope(gain, start, dur, peak) {
  gain.setValueAtTime(0.0001, start);
  gain.exponentialRampToValueAtTime(peak, start + 0.006);
  gain.exponentialRampToValueAtTime(0.0001, start + dur);
}

// Each sound: a list of notes (tone) and knocks. Pitches chosen to sit together: the
// pair and the win are steps of a C major chord; "wrong" is low and falling.
let SOUNDS = {
  select: [{ knock: true, f: 2600, dur: 0.05, gain: 0.5 }, { type: "triangle", f: 1320, dur: 0.05, gain: 0.06 }],
  pair: [{ type: "triangle", f: 784, dur: 0.1, gain: 0.16 }, { type: "triangle", f: 1047, at: 0.07, dur: 0.18, gain: 0.16 }],
  wrong: [{ type: "sawtooth", f: 196, to: 147, dur: 0.2, gain: 0.07 }, { type: "sine", f: 98, dur: 0.2, gain: 0.15 }],
  shuffle: [0, 0.045, 0.1, 0.14, 0.2, 0.24, 0.3].map(function (at, i) {
    return { knock: true, f: 1800 + (i % 3) * 500, at: at, dur: 0.04, gain: 0.35 };
  }),
  win: [523, 659, 784, 1047].map(function (f, i) {
    return { type: "triangle", f: f, at: i * 0.11, dur: i === 3 ? 0.6 : 0.16, gain: 0.16 };
  }),
  count: [{ type: "sine", f: 880, dur: 0.12, gain: 0.22 }],
  go: [{ type: "triangle", f: 1175, dur: 0.35, gain: 0.18 }, { type: "sine", f: 1760, dur: 0.3, gain: 0.08 }],
};

function play(name) {
  let notes = SOUNDS[name];
  if (!notes || !enabled()) return;
  try {
    let ac = audio();
    if (!ac) return;
    notes.forEach(function (note) { (note.knock ? knock : tone)(ac, note); });
  } catch (e) { /* a sound is never worth breaking the game for */ }
}

function unlock() {
  if (enabled()) { try { audio(); } catch (e) { /* no audio on this device */ } }
}
["pointerdown", "keydown"].forEach(function (type) {
  document.addEventListener(type, unlock, { capture: true, passive: true });
});

export const MahjongSound = {
  play: play,
  enabled: enabled,
  names: Object.keys(SOUNDS),
  // For tests and the settings: the AudioContext once made (null before).
  context: function () { return context; },
};
window.MahjongSound = MahjongSound;
