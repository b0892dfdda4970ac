// A minimal page: sign in with a name, then list the rooms. The game speaks
// its line protocol over the WebSocket at /ws, one text message per line.
"use strict";
const statusLine = document.getElementById("status");
const roomList = document.getElementById("rooms");
const form = document.getElementById("hello");

function connect(name) {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  const rooms = [];
  ws.onopen = () => { ws.send("HELLO 2 " + name); ws.send("ROOMS"); };
  ws.onmessage = (event) => {
    const line = event.data;
    if (line.startsWith("OK hello")) {
      statusLine.textContent = "Signed in as " + name + ".";
    } else if (line.startsWith("S room ")) {
      rooms.push(line.slice(7));
    } else if (line.startsWith("OK rooms")) {
      roomList.replaceChildren(...rooms.map((text) => {
        const item = document.createElement("li");
        item.textContent = text;
        return item;
      }));
      roomList.hidden = false;
      rooms.length = 0;
    } else if (line.startsWith("ERR ") || line.startsWith("BYE ")) {
      statusLine.textContent = line;
    }
  };
  ws.onclose = () => { statusLine.textContent += " (disconnected)"; };
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const name = document.getElementById("name").value.trim();
  if (name) { form.hidden = true; connect(name); }
});
