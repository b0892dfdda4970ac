"""PING round trips on one connection while another uploads a photo (UPLOAD + DATA lines):
what an upload costs other players (README, Pictures). Against a running server:
Usage: python3 ping_during_upload.py PORT FILE"""
import base64, socket, sys, threading, time, statistics

port, path = int(sys.argv[1]), sys.argv[2]
data = open(path, 'rb').read()

def lines(sock):
    buf = b''
    while True:
        while b'\n' not in buf:
            chunk = sock.recv(65536)
            if not chunk:
                return
            buf += chunk
        line, buf = buf.split(b'\n', 1)
        yield line.decode()

def pinger(stop, out):
    s = socket.create_connection(('127.0.0.1', port)); s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    r = lines(s)
    while not stop.is_set():
        t = time.perf_counter(); s.sendall(b'PING\n'); next(r); out.append((t, time.perf_counter() - t))
    s.close()

def quiet(seconds):
    out, stop = [], threading.Event()
    th = threading.Thread(target=pinger, args=(stop, out)); th.start(); time.sleep(seconds); stop.set(); th.join()
    return [d for _, d in out]

q = quiet(2.0)
out, stop = [], threading.Event()
th = threading.Thread(target=pinger, args=(stop, out)); th.start()
u = socket.create_connection(('127.0.0.1', port)); r = lines(u)
u.sendall(b'HELLO 2 uploader\n'); next(r)
t0 = time.perf_counter()
u.sendall(f'UPLOAD board {len(data)}\n'.encode()); ready = next(r)
chars = int(ready.split('line=')[1]); per = chars // 4 * 3
body = b''.join(b'DATA ' + base64.b64encode(data[i:i + per]) + b'\n' for i in range(0, len(data), per))
u.sendall(body); t1 = time.perf_counter()
reply = next(r); t2 = time.perf_counter()
stop.set(); th.join()
during = [d for t, d in out if t1 <= t <= t2]
def ms(v): return f'{v * 1000:.2f} ms'
print('reply:', reply)
print(f'bytes sent in {ms(t1 - t0)}; last byte to OK (decode + store) {ms(t2 - t1)}')
print(f'quiet   : {len(q)} pings, median {ms(statistics.median(q))}, p99 {ms(sorted(q)[int(len(q)*0.99)])}, max {ms(max(q))}')
print(f'decoding: {len(during)} pings, median {ms(statistics.median(during))}, p99 {ms(sorted(during)[int(len(during)*0.99)])}, max {ms(max(during))}')
