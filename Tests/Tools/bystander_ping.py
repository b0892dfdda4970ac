#!/usr/bin/env python3
"""A bystander's PING while one client pipelines expensive requests (issue 31).

    python3 Tests/Tools/bystander_ping.py --puzzle .build/release/puzzle [--count 200]

Starts a fresh server with a 100x100 room ("big") and a 2x2 swap room ("tiny",
solved first so that it keeps a replay). For each kind of request, one
client sends COUNT of them in one write and reads every answer, while a
bystander (another connection) sends a PING every 5 ms and times each PONG.
Prints one JSON line per kind: pings, p50, p99 and max in milliseconds
("idle": nobody floods for 2 s, the machine's floor).
Goal: p99 <= 10 ms, max <= 50 ms."""
import argparse, json, multiprocessing, os, socket, subprocess, tempfile, time

from line_client import LineClient as Lines, free_port


def flood(port, kind, count, done, outcome):
    """In a process of its own: a flooder thread beside the bystander would
    hold Python's GIL for up to its 5 ms switch interval, and that wait
    would be timed as the server's."""
    try:
        flood_once(port, kind, count)
        outcome.put("answered")
    except (OSError, SystemExit) as e:
        # The flooder may be cut as a slow reader: the bystander is what is timed.
        outcome.put(f"flooder cut: {e}")
    done.set()


def flood_once(port, kind, count):
    if kind == "idle":
        # Nothing sent for 2 s: the machine's own floor, to read the others against.
        time.sleep(2)
        return
    if kind == "http":
        s = socket.create_connection(("127.0.0.1", port), timeout=120)
        req = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
        s.sendall(req * count)
        got, buf = 0, b""
        while got < count:
            chunk = s.recv(1 << 20)
            if not chunk:
                break
            buf += chunk
            while True:
                i = buf.find(b"\r\n\r\n")
                if i < 0:
                    break
                head = buf[:i].decode(errors="replace")
                n = int([h.split(":")[1] for h in head.split("\r\n") if h.lower().startswith("content-length")][0])
                if len(buf) < i + 4 + n:
                    break
                buf = buf[i + 4 + n:]
                got += 1
        s.close()
        return
    c = Lines(port)
    c.send("HELLO 2 flooder\n")
    c.reply()
    setup = {"sync": "JOIN big\n", "picture": "JOIN big\n", "layout": "JOIN big\n",
             "history": "JOIN tiny\n", "replay": "JOIN tiny\n"}.get(kind)
    if setup:
        c.send(setup)
        c.reply()
    one = {"create": None, "join": "JOIN big\nLEAVE\n", "sync": "SYNC\n", "picture": "PICTURE\n",
           "layout": "LAYOUT\n", "history": "HISTORY 0\n", "replay": "REPLAY 0\n"}[kind]
    if kind == "create":
        batch = "".join(f"CREATE c{i} jigsaw 100x100\n" for i in range(count))
        replies = count
    else:
        batch = one * count
        replies = count * one.count("\n")
    c.send(batch)
    for _ in range(replies):
        c.reply()
    c.s.close()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--puzzle", required=True)
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--kinds", default="idle,create,join,sync,picture,layout,history,replay,http")
    args = p.parse_args()
    data = tempfile.mkdtemp(prefix="bystander-")
    conf = data + ".conf"
    with open(conf, "w") as f:
        f.write("creates_per_hour = 0\nmax_connections_per_address = 0\n")
    port = free_port()
    server = subprocess.Popen([args.puzzle, "serve", "--port", str(port), "--bind", "127.0.0.1", "--data", data,
                               "--log-level", "error", "--config", conf, "--telnet-port", "off",
                               "--room", "big jigsaw 100x100", "--room", "tiny swap 2x2"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port)).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        # Solve the 2x2 so that it keeps a replay (HISTORY 0, REPLAY 0).
        s = Lines(port)
        s.send("HELLO 2 solver\n")
        s.reply()
        s.send("JOIN tiny\n")
        lines = []
        while True:
            l = s.line()
            if l.startswith("OK joined"):
                break
            lines.append(l)
        # A swap board has no margin: cell (r, c) has its corner at (4c, 4r).
        # Each tile dropped on its own cell trades places with the one there.
        for piece in range(4):
            r, c = divmod(piece, 2)
            s.send(f"GRAB {piece}\nDRAG {c * 4} {r * 4}\nDROP\n")
            for _ in range(3):
                s.reply()
        s.send("HISTORY\n")
        hist = s.reply()
        bystander = Lines(port)
        results = []
        for kind in args.kinds.split(","):
            done = multiprocessing.Event()
            outcome = multiprocessing.Queue()
            t = multiprocessing.Process(target=flood, args=(port, kind, args.count, done, outcome))
            t.start()
            lat = []
            while not done.is_set():
                t0 = time.monotonic()
                bystander.send("PING\n")
                bystander.reply()
                lat.append((time.monotonic() - t0) * 1000)
                time.sleep(0.005)
            t.join()
            outcome = [outcome.get()] if not outcome.empty() else []
            lat.sort()
            q = lambda f: round(lat[min(len(lat) - 1, int(len(lat) * f))], 2) if lat else None
            results.append({"kind": kind, "count": args.count, "pings": len(lat), "p50_ms": q(0.5), "p99_ms": q(0.99),
                            "max_ms": round(lat[-1], 2) if lat else None, "flooder": outcome[0] if outcome else None})
            print(json.dumps(results[-1]), flush=True)
        print(json.dumps({"tiny_history": hist}))
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
