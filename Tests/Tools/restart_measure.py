#!/usr/bin/env python3
"""Time to first PONG and resident memory before and after a restart of a
server holding many big rooms (issue 31).

    python3 Tests/Tools/restart_measure.py --puzzle .build/release/puzzle \
        --rooms 200 --size 100x100 --moves 200 [--kill9] [--config-line 'creates_per_hour = 0']

Fills a fresh data folder (CREATE, JOIN, GRAB/DRAG/DROP in every room),
reads the server's VmRSS, stops it (SIGTERM, or kill -9 with --kill9),
starts it again and times from exec to the first PONG, a JOIN of the small
configured lobby, a JOIN of the last room by name, and a ROOMS (which waits
for every room); then reads VmRSS again. Prints one JSON line.""" 
import argparse, json, os, signal, socket, subprocess, sys, tempfile, time

from line_client import LineClient, free_port


def rss(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def start(args, data, port, conf):
    cmd = [args.puzzle, "serve", "--port", str(port), "--bind", "127.0.0.1", "--data", data,
           "--log-level", "error", "--seed", "7", "--room", "lobby jigsaw 3x3", "--config", conf]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def first_pong(port, deadline):
    """Seconds until a connection's PING is answered."""
    while time.monotonic() < deadline:
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=60)
        except OSError:
            time.sleep(0.005)
            continue
        s.sendall(b"PING\n")
        buf = b""
        while b"\n" not in buf:
            chunk = s.recv(4096)
            if not chunk:
                break
            buf += chunk
        s.close()
        if buf.startswith(b"PONG"):
            return True
    return False


def fill(port, rooms, size, moves):
    c = LineClient(port)
    c.send("HELLO 2 filler\n")
    for r in range(rooms):
        # CREATE is paced and charged to the turn budget: one room at a time.
        c.send(f"CREATE r{r} jigsaw {size}\nPING c{r}\n")
        c.until(f"PONG c{r}")
        batch = [f"JOIN r{r}"]
        for m in range(moves):
            piece = (m * 37 + r) % 100
            batch += [f"GRAB {piece}", f"DRAG {(m * 13) % 900 + 10} {(m * 7) % 600 + 10}", "DROP"]
        batch += ["LEAVE", f"PING m{r}"]
        c.send("\n".join(batch) + "\n")
        c.until(f"PONG m{r}")
    c.s.close()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--puzzle", required=True)
    p.add_argument("--rooms", type=int, default=200)
    p.add_argument("--size", default="100x100")
    p.add_argument("--moves", type=int, default=200)
    p.add_argument("--kill9", action="store_true")
    p.add_argument("--config-line", action="append", default=[])
    p.add_argument("--data")
    args = p.parse_args()
    data = args.data or tempfile.mkdtemp(prefix="restart-measure-")
    conf = os.path.join(data + ".conf")
    with open(conf, "w") as f:
        f.write("\n".join(args.config_line) + "\n")
    port = free_port()
    server = start(args, data, port, conf)
    assert first_pong(port, time.monotonic() + 600), "server never answered"
    t0 = time.monotonic()
    fill(port, args.rooms, args.size, args.moves)
    fill_s = time.monotonic() - t0
    before = rss(server.pid)
    server.send_signal(signal.SIGKILL if args.kill9 else signal.SIGTERM)
    server.wait()
    data_bytes = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(data) for f in fs)
    port = free_port()
    t0 = time.monotonic()
    server = start(args, data, port, conf)
    assert first_pong(port, time.monotonic() + 600), "server never answered after the restart"
    pong_s = time.monotonic() - t0
    after_pong = rss(server.pid)
    # A small room (the configured lobby), then the last room by name
    # (a server loading in the background loads it next).
    c = LineClient(port)
    c.send("HELLO 2 probe\nJOIN lobby\nPING lobby\n")
    c.until("PONG lobby")
    lobby_s = time.monotonic() - t0
    c.send(f"JOIN r{args.rooms - 1}\nPING done\n")
    c.until("PONG done")
    joined_s = time.monotonic() - t0
    # Every room in: ROOMS waits for them all.
    c.send("ROOMS\nPING all\n")
    c.until("PONG all")
    all_s = time.monotonic() - t0
    time.sleep(1)
    after = rss(server.pid)
    server.send_signal(signal.SIGTERM)
    server.wait()
    print(json.dumps({"rooms": args.rooms, "size": args.size, "moves": args.moves, "kill9": args.kill9,
                      "data_mb": round(data_bytes / 1e6, 1), "fill_s": round(fill_s, 1),
                      "rss_before_mb": round(before / 1e6, 1), "first_pong_s": round(pong_s, 2),
                      "rss_at_pong_mb": round(after_pong / 1e6, 1), "lobby_joined_s": round(lobby_s, 2),
                      "last_room_joined_s": round(joined_s, 2), "all_rooms_s": round(all_s, 2),
                      "rss_after_mb": round(after / 1e6, 1)}))


if __name__ == "__main__":
    main()
