// The layout picker's filter by name (layouts/templates/layouts/_picker.html), and the
// share page's Copy link button. No request: every choice is already on the page.
import { copyButton } from "../mahjong/ui.js";

function fold(text) {
  // Accents do not matter when searching ("dragon" finds "Dragón").
  return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
}

function filterPicker(picker, query) {
  const wanted = fold(query);
  const shownGroups = new Set();
  let shown = 0;
  picker.querySelectorAll(".pick").forEach((item) => {
    const match = !wanted || fold(item.dataset.title || "").includes(wanted);
    item.hidden = !match;
    if (match) {
      shown += 1;
      shownGroups.add(item.dataset.group);
    }
  });
  picker.querySelectorAll("[data-picker-group]").forEach((head) => {
    head.hidden = !shownGroups.has(head.dataset.pickerGroup);
  });
  picker.querySelector("[data-picker-none]").hidden = shown > 0;
}

document.querySelectorAll("[data-picker]").forEach((picker) => {
  const input = picker.querySelector("[data-picker-filter]");
  input.addEventListener("input", () => filterPicker(picker, input.value));
  // Enter in the filter must not submit the form around it (New game, a room's rules).
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") event.preventDefault();
  });
});

// The share page's Copy link (layouts/detail.html): its words are on the button.
document.querySelectorAll("[data-copy]").forEach((button) => {
  const words = { copied: button.dataset.copied, failed: button.dataset.copyFailed };
  copyButton(button, document.getElementById(button.dataset.copy), document.getElementById("share-copied"), words);
});
