#!/usr/bin/env python3
"""The server's peak memory while it takes an 8192x8192 upload (issue 31).

    python3 Tests/Tools/upload_memory.py --puzzle .build/release/puzzle

Makes a baseline and a progressive JPEG of 8192x8192 (a smooth picture,
Pillow), starts a server on a fresh data folder, uploads each (UPLOAD, then
DATA lines of base64 as PROTOCOL.md says) and reads the server's VmRSS
before and VmHWM (its peak) after. Prints one JSON line per file."""
import argparse, base64, io, json, os, re, socket, subprocess, tempfile


def memory(pid):
    out = {}
    for line in open(f"/proc/{pid}/status"):
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0]) * 1024
    return out


def lines(sock):
    buf = b""
    while True:
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            yield line.decode()
        data = sock.recv(65536)
        if not data:
            return
        buf += data


def picture(progressive):
    from PIL import Image
    small = Image.linear_gradient("L").resize((512, 512))
    img = Image.merge("RGB", (small, small.rotate(90), small.rotate(180))).resize((8192, 8192), Image.BILINEAR)
    out = io.BytesIO()
    img.save(out, "JPEG", quality=90, progressive=progressive)
    return out.getvalue()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--puzzle", required=True)
    args = ap.parse_args()
    for kind in ("baseline", "progressive"):
        data = picture(kind == "progressive")
        folder = tempfile.mkdtemp()
        open(folder + "/empty.conf", "w").close()
        server = subprocess.Popen([args.puzzle, "serve", "--port", "0", "--bind", "127.0.0.1", "--data", folder,
                                   "--config", folder + "/empty.conf", "--log-level", "error"],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        port = int(re.search(r"127\.0\.0\.1:(\d+)", server.stdout.readline()).group(1))
        s = socket.create_connection(("127.0.0.1", port))
        read = lines(s)
        s.sendall(b"HELLO 2 measure\n")
        next(read)
        before = memory(server.pid)
        s.sendall(f"UPLOAD big {len(data)}\n".encode())
        ready = next(read)
        per = int(re.search(r"line=(\d+)", ready).group(1)) // 4 * 3
        s.sendall(b"".join(b"DATA " + base64.b64encode(data[i:i + per]) + b"\n" for i in range(0, len(data), per)))
        reply = next(read)
        after = memory(server.pid)
        print(json.dumps({"file": f"8192x8192 {kind} JPEG", "bytes": len(data), "reply": reply[:60],
                          "rss_before_mb": round(before["VmRSS"] / 2**20, 1), "peak_mb": round(after["VmHWM"] / 2**20, 1)}))
        server.kill()


main()
