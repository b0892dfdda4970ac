#!/usr/bin/env python3
"""The browser page in real headless Chromium, against a real server.

Run by Tests/PuzzleServerTests/BrowserPageTests.swift (swift test), which
starts the server and answers this script's restart requests: the script
prints `@restart` on stdout and reads one line from stdin once the server is
back on the same port with the same data. Alone, against a running server
(the restart step is then skipped):

    python3 Tests/Browser/page_test.py --port 7171 --shots /tmp/page-png --no-restart

The server must have these rooms (what the Swift test gives it):
lobby jigsaw 3x3, tiny jigsaw 2x2 (pictures fixed), quick swap 3x3, turn
jigsaw 3x3 rotation=on, keep jigsaw 2x2 lease=4500, big jigsaw 30x30.

A phone (390x844, touch through the DevTools protocol) and a laptop
(1920x1080, mouse through W3C actions) join one room with a terminal-less TCP
player: touch and mouse drags seen placed by the other browser and the TCP
player, the drop target seen live by everyone, chat both ways, the TCP
player's drag seen live in the page, a swap tile that lands nowhere going
back, a turn by right click, a reconnect across a server restart, the page
solving a 2x2 then asking for the next puzzle, a piece left in hand counting
down and going back, and the laptop watching a full room where the phone
plays (its drop seen, no grab sent, chat, a dropped link, then Join to play);
the page opened again going back to its room (issue 29).
Screenshots go to --shots.
"""
import argparse
import json
import math
import os
import re
import socket
import sys
import time

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.mouse_button import MouseButton
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

WAIT = 20  # seconds: generous, for a loaded 2-core machine


def log(*args):
    print(*args, file=sys.stderr, flush=True)


class Failure(Exception):
    pass


def wait(driver, what, predicate, timeout=WAIT):
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: predicate(d))
    except TimeoutException:
        state = driver.execute_script('return window.puzzlePage && window.puzzlePage.state()')
        raise Failure(f'timed out waiting for {what}; page state: {json.dumps(state)}')


class LinePlayer:
    """A plain TCP player of the line protocol (as `nc` would be)."""

    def __init__(self, port, name):
        self.sock = socket.create_connection(('127.0.0.1', port), timeout=WAIT)
        self.buf = b''
        self.lines = []
        self.send(f'HELLO 2 {name}')
        hello = self.reply()
        m = re.search(r' id=(\d+)', hello)
        if not m:
            raise Failure(f'TCP HELLO: {hello}')
        self.id = int(m.group(1))

    def send(self, line):
        self.sock.sendall((line + '\n').encode())

    def read_line(self, deadline):
        while b'\n' not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure('TCP player: no line before the deadline')
            self.sock.settimeout(left)
            data = self.sock.recv(65536)
            if not data:
                raise Failure('TCP player: the server closed the connection')
            self.buf += data
        line, self.buf = self.buf.split(b'\n', 1)
        return line.decode()

    def reply(self):
        """The next reply (OK/ERR/PONG), keeping the events seen on the way."""
        deadline = time.monotonic() + WAIT
        while True:
            line = self.read_line(deadline)
            if line.startswith(('OK', 'ERR', 'PONG')):
                return line
            self.lines.append(line)

    def request(self, line):
        self.send(line)
        r = self.reply()
        if not r.startswith('OK'):
            raise Failure(f'TCP {line}: {r}')
        return r

    def wait_for(self, what, predicate):
        for i, line in enumerate(self.lines):
            if predicate(line):
                del self.lines[:i + 1]
                return line
        self.lines.clear()
        deadline = time.monotonic() + WAIT
        while True:
            try:
                line = self.read_line(deadline)
            except Failure as e:
                raise Failure(f'TCP player waiting for {what}: {e}')
            if predicate(line):
                return line

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def browser(width, height, touch):
    o = webdriver.ChromeOptions()
    chromium = os.environ.get('CHROMIUM', '/usr/bin/chromium')
    if os.path.exists(chromium):
        o.binary_location = chromium
    for a in ['--headless=new', '--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu',
              '--hide-scrollbars', '--mute-audio', f'--window-size={width},{height}']:
        o.add_argument(a)
    if touch:
        o.add_experimental_option('mobileEmulation', {
            'deviceMetrics': {'width': width, 'height': height, 'pixelRatio': 3, 'touch': True},
            'userAgent': 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Mobile Safari/537.36',
        })
    o.set_capability('goog:loggingPrefs', {'browser': 'ALL'})
    driver_path = os.environ.get('CHROMEDRIVER', '/usr/bin/chromedriver')
    service = Service(driver_path) if os.path.exists(driver_path) else Service()
    d = webdriver.Chrome(service=service, options=o)
    if not touch:
        # The viewport itself 1920x1080 (a window's size includes no browser chrome headless, but be sure).
        d.execute_cdp_cmd('Emulation.setDeviceMetricsOverride',
                          {'width': width, 'height': height, 'deviceScaleFactor': 1, 'mobile': False})
    return d


def js(d, script, *args):
    return d.execute_script(script, *args)


def state(d):
    return js(d, 'return window.puzzlePage.state()')


def piece(d, i):
    return js(d, 'return window.puzzlePage.piece(arguments[0])', i)


def cell(d, r, c):
    return js(d, 'return window.puzzlePage.cell(arguments[0], arguments[1])', r, c)


def sign_in(d, url, name):
    d.get(url)
    box = wait(d, 'the name box', lambda d: d.find_element(By.ID, 'name'))
    box.clear()
    box.send_keys(name)
    d.find_element(By.CSS_SELECTOR, '#name-form button[type=submit]').click()
    wait(d, 'the rooms list', lambda d: d.find_elements(By.CSS_SELECTOR, '#rooms button[data-room]'))


def join(d, room):
    def click(d):
        # The list is redrawn every few seconds: a button found may be gone by the click.
        try:
            buttons = d.find_elements(By.CSS_SELECTOR, f'#rooms button[data-room="{room}"]')
            if not buttons:
                return False
            buttons[0].click()
            return True
        except StaleElementReferenceException:
            return False
    wait(d, f'room {room} listed and its Join button clicked', click)
    wait(d, f'the table of {room}', lambda d: (lambda s: s['inGame'] and s['room'] == room)(state(d)))


def touch(d, kind, points):
    d.execute_cdp_cmd('Input.dispatchTouchEvent', {'type': kind, 'touchPoints': points})


def touch_drag(d, start, end, while_down=None, steps=10):
    x0, y0, x1, y1 = start['x'], start['y'], end['x'], end['y']
    touch(d, 'touchStart', [{'x': x0, 'y': y0, 'id': 1}])
    for i in range(1, steps + 1):
        touch(d, 'touchMove', [{'x': x0 + (x1 - x0) * i / steps, 'y': y0 + (y1 - y0) * i / steps, 'id': 1}])
    if while_down:
        while_down()
    touch(d, 'touchEnd', [])


def mouse_drag(d, start, end, while_down=None):
    ab = ActionBuilder(d, duration=150)
    p = ab.pointer_action
    p.move_to_location(int(start['x']), int(start['y']))
    p.pointer_down(MouseButton.LEFT)
    mid = (int((start['x'] + end['x']) / 2), int((start['y'] + end['y']) / 2))
    p.move_to_location(*mid)
    p.move_to_location(int(end['x']), int(end['y']))
    ab.perform()
    if while_down:
        while_down()
    ab = ActionBuilder(d)
    ab.pointer_action.pointer_up(MouseButton.LEFT)
    ab.perform()


def placed_at(d, i, r, c):
    p = piece(d, i)
    return p and p['cell'] and p['r'] == r and p['c'] == c and not p['holder']


def messages(d):
    return d.find_element(By.ID, 'messages').get_attribute('textContent')


def shot(d, shots, name):
    path = os.path.join(shots, name + '.png')
    d.save_screenshot(path)
    log('screenshot', path)


def restart_server(control):
    if not control:
        return False
    print('@restart', flush=True)
    answer = sys.stdin.readline().strip()
    if answer != 'ok':
        raise Failure(f'the server restart failed: {answer!r}')
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--port', type=int, required=True)
    ap.add_argument('--shots', default='/tmp/page-png')
    ap.add_argument('--no-restart', action='store_true')
    ap.add_argument('--tcp-port', type=int, help='the TCP players\' port, if not --port')
    ap.add_argument('--only-tools', action='store_true', help='only the big-puzzle tools and layout scenario (issue 29)')
    args = ap.parse_args()
    tcp_port = args.tcp_port or args.port
    url = f'http://127.0.0.1:{args.port}/'
    os.makedirs(args.shots, exist_ok=True)
    laptop = phone = tcp = None
    try:
        laptop = browser(1920, 1080, touch=False)
        phone = browser(390, 844, touch=True)

        if args.only_tools:
            sign_in(phone, url, 'phone')
            sign_in(laptop, url, 'laptop')
            tcp = LinePlayer(tcp_port, 'term')
            tools_scenario(laptop, phone, tcp, tcp_port, args.shots)
            print('@passed', flush=True)
            return 0

        # --- Names, the rooms, one room for three players.
        sign_in(phone, url, 'phone')
        shot(phone, args.shots, 'phone-rooms')
        sign_in(laptop, url, 'laptop')
        join(laptop, 'lobby')
        join(phone, 'lobby')
        tcp = LinePlayer(tcp_port, 'term')
        tcp.request('JOIN lobby')
        for d in (laptop, phone):
            wait(d, 'the page to see the TCP player', lambda d: 'term joined' in messages(d))
        for d in (laptop, phone):
            wait(d, 'the jigsaw edges from the server', lambda d: state(d)['edges'])
        phone_id, laptop_id = state(phone)['id'], state(laptop)['id']
        shot(laptop, args.shots, 'laptop-3x3')
        shot(phone, args.shots, 'phone-3x3')

        # --- The phone drags piece 0 to its cell with a finger; everyone sees the target live.
        home = cell(phone, 0, 0)
        def phone_holding():
            wait(phone, 'the phone to draw piece 0 under the finger',
                 lambda d: (lambda p: abs(p['x'] - home['x']) < 2 and abs(p['y'] - home['y']) < 2 and p['target'] == '0,0')(piece(d, 0)))
            wait(laptop, 'the laptop to see the phone hold piece 0 over cell 0,0',
                 lambda d: (lambda p: p['holder'] == phone_id and p['target'] == '0,0')(piece(d, 0)))
            tcp.wait_for('the drag with its target', lambda l: re.search(rf' dragged 0 {phone_id} \d+ \d+ 0,0$', l))
            shot(phone, args.shots, 'phone-dragging')
            shot(laptop, args.shots, 'laptop-sees-phone-drag')
        touch_drag(phone, piece(phone, 0), home, while_down=phone_holding)
        wait(laptop, 'piece 0 placed, seen by the laptop', lambda d: placed_at(d, 0, 0, 0))
        wait(phone, 'piece 0 placed, seen by the phone', lambda d: placed_at(d, 0, 0, 0))
        tcp.wait_for('piece 0 placed', lambda l: f' placed 0 {phone_id} cell 0 0 0' in l)

        # --- The laptop drags piece 1 with the mouse.
        spot = cell(laptop, 0, 1)
        def laptop_holding():
            wait(laptop, 'the laptop to draw piece 1 under the mouse',
                 lambda d: (lambda p: abs(p['x'] - spot['x']) < 2 and abs(p['y'] - spot['y']) < 2)(piece(d, 1)))
            wait(phone, 'the phone to see the laptop hold piece 1 over cell 0,1',
                 lambda d: (lambda p: p['holder'] == laptop_id and p['target'] == '0,1')(piece(d, 1)))
        mouse_drag(laptop, piece(laptop, 1), spot, while_down=laptop_holding)
        wait(phone, 'piece 1 placed, seen by the phone', lambda d: placed_at(d, 1, 0, 1))
        tcp.wait_for('piece 1 placed', lambda l: f' placed 1 {laptop_id} cell 0 1 0' in l)

        # --- Chat both ways, with an emoji from the picker.
        box = laptop.find_element(By.ID, 'chat-input')
        box.send_keys('hello from the laptop ')
        laptop.find_element(By.ID, 'emoji-toggle').click()
        laptop.find_element(By.CSS_SELECTOR, '#emoji button[title="🧩"]').click()
        box.send_keys(Keys.ENTER)
        wait(phone, 'the laptop\'s chat on the phone', lambda d: 'laptop: hello from the laptop 🧩' in messages(d))
        tcp.wait_for('the laptop\'s chat', lambda l: l.endswith(f' say {laptop_id} hello from the laptop 🧩'))
        if phone.find_element(By.ID, 'chat').get_attribute('hidden') is not None:
            phone.find_element(By.ID, 'b-chat').click()
        pbox = phone.find_element(By.ID, 'chat-input')
        pbox.send_keys('hi from the phone')
        pbox.send_keys(Keys.ENTER)
        wait(laptop, 'the phone\'s chat on the laptop', lambda d: 'phone: hi from the phone' in messages(d))
        tcp.request('SAY and hello from a terminal')
        wait(phone, 'the TCP chat on the phone', lambda d: 'term: and hello from a terminal' in messages(d))
        shot(phone, args.shots, 'phone-chat')
        phone.find_element(By.ID, 'chat-input').send_keys(Keys.ESCAPE)

        # --- Keys on the laptop: Tab takes a piece, arrows move it, Esc gives it back.
        js(laptop, "document.getElementById('table').focus()")
        ActionChains(laptop).send_keys(Keys.TAB).perform()
        grabbed = tcp.wait_for('the laptop\'s Tab grab', lambda l: re.search(rf' grabbed \d+ {laptop_id}$', l))
        taken = int(grabbed.split()[3])
        ActionChains(laptop).send_keys(Keys.ARROW_DOWN).send_keys(Keys.ARROW_DOWN).perform()
        tcp.wait_for('the arrow keys\' drag', lambda l: f' dragged {taken} {laptop_id} ' in l)
        ActionChains(laptop).send_keys(Keys.ESCAPE).perform()
        tcp.wait_for('the Esc release', lambda l: l.endswith(f' released {taken} {laptop_id}'))

        # --- Two fingers pinch the phone's table bigger; the fit button fits it again.
        fitted = js(phone, 'return window.puzzlePage.unit()')
        mid = cell(phone, 1, 1)
        touch(phone, 'touchStart', [{'x': mid['x'] - 30, 'y': mid['y'], 'id': 1}, {'x': mid['x'] + 30, 'y': mid['y'], 'id': 2}])
        for i in range(1, 9):
            touch(phone, 'touchMove', [{'x': mid['x'] - 30 - 10 * i, 'y': mid['y'], 'id': 1}, {'x': mid['x'] + 30 + 10 * i, 'y': mid['y'], 'id': 2}])
        touch(phone, 'touchEnd', [])
        wait(phone, 'the pinch to zoom in', lambda d: js(d, 'return window.puzzlePage.unit()') > fitted * 1.8)
        shot(phone, args.shots, 'phone-pinched')
        phone.find_element(By.ID, 'b-fit').click()
        wait(phone, 'the fit button', lambda d: abs(js(d, 'return window.puzzlePage.unit()') - fitted) < 0.01)

        # --- The TCP player's drag, live in both pages, then its drop.
        t = laptop.execute_script('return window.puzzlePage.state().table')
        bx, by = t['bx'], t['by']
        tcp.request('GRAB 2')
        tcp.request(f'DRAG 2 {bx + 8} {by + 1}')
        for d in (laptop, phone):
            wait(d, 'the TCP player\'s drag with its target',
                 lambda d: (lambda p: p['holder'] == tcp.id and p['target'] == '0,2')(piece(d, 2)))
        # The piece is drawn where it was dragged (within the page's slide in).
        want = cell(laptop, 0, 2)
        wait(laptop, 'the held piece drawn at the drag point',
             lambda d: (lambda p: abs(p['x'] - want['x']) < 2 and abs(p['y'] - (want['y'] + js(d, 'return window.puzzlePage.unit()'))) < 2)(piece(d, 2)))
        shot(laptop, args.shots, 'laptop-sees-tcp-drag')
        tcp.request('DROP 2')
        for d in (laptop, phone):
            wait(d, 'the TCP player\'s piece placed', lambda d: placed_at(d, 2, 0, 2))

        # --- A turn by right click in a rotation room.
        join_other(laptop, 'turn')
        before = piece(laptop, 4)
        ab = ActionBuilder(laptop)
        ab.pointer_action.move_to_location(int(before['x']), int(before['y']))
        ab.pointer_action.pointer_down(MouseButton.RIGHT)
        ab.pointer_action.pointer_up(MouseButton.RIGHT)
        ab.perform()
        wait(laptop, 'piece 4 turned a quarter', lambda d: (lambda p: p['rot'] == (before['rot'] + 1) % 4 and not p['holder'])(piece(d, 4)))

        # --- A swap tile dropped on its own cell has no target: it slides back.
        join_other(laptop, 'quick')
        p0 = piece(laptop, 0)
        home = (p0['r'], p0['c'])
        own = cell(laptop, p0['r'], p0['c'])
        mouse_drag(laptop, p0, {'x': own['x'] + 3, 'y': own['y'] + 3})
        wait(laptop, 'the tile back in its cell', lambda d: (lambda p: p['cell'] and (p['r'], p['c']) == home and not p['holder']
                                                            and abs(p['x'] - own['x']) < 1 and abs(p['y'] - own['y']) < 1)(piece(d, 0)))
        join_other(laptop, 'lobby')

        # --- The phone's link drops while a finger holds piece 4: the page comes back
        # within the server's stay, the piece still in hand, and the drop lands.
        target = cell(phone, 1, 1)
        start = piece(phone, 4)
        f = {'x': start['x'], 'y': start['y'], 'id': 1}
        touch(phone, 'touchStart', [f])
        for i in range(1, 6):
            touch(phone, 'touchMove', [dict(f, x=f['x'] + (target['x'] - f['x']) * i / 10, y=f['y'] + (target['y'] - f['y']) * i / 10)])
        tcp.wait_for('the phone\'s grab of piece 4', lambda l: l.endswith(f' grabbed 4 {phone_id}'))
        hellos = lambda d: sum(1 for l in js(d, 'return window.puzzlePage.debug.trace') if l.startswith('> HELLO'))
        before_drop = hellos(phone)
        js(phone, 'window.puzzlePage.dropLink()')
        for i in range(6, 11):
            touch(phone, 'touchMove', [dict(f, x=f['x'] + (target['x'] - f['x']) * i / 10, y=f['y'] + (target['y'] - f['y']) * i / 10)])
        wait(phone, 'the phone back after its link dropped',
             lambda d: hellos(d) > before_drop and (lambda s: s['connected'] and s['joined'])(state(d)) and piece(d, 4)['holder'] == phone_id)
        trace = js(phone, 'return window.puzzlePage.debug.trace')
        has_rejoin = any(l.startswith('< OK joined lobby ') and ' run=' in l for l in trace)  # a server with REJOIN
        if has_rejoin and not any(l.startswith('< OK joined lobby ') and ' missed=' in l for l in trace):
            raise Failure('the phone did not catch up with REJOIN (the missed events, not a snapshot)')
        touch(phone, 'touchEnd', [])
        line = tcp.wait_for('piece 4 placed after the dropped link', lambda l: ' placed 4 ' in l or re.search(r' (left|returned 4) ', l))
        if f' placed 4 {phone_id} cell 1 1 0' not in line:
            raise Failure(f'the dropped link cost the phone its piece or its place: {line}')

        # --- Reconnect: the server restarts under the pages; they come back as themselves.
        if not args.no_restart:
            tcp.close()
            tcp = None
            restart_server(True)
            for d, who, pid in ((laptop, 'laptop', laptop_id), (phone, 'phone', phone_id)):
                wait(d, f'the {who} back in its room after the restart',
                     lambda d: (lambda s: s['connected'] and s['joined'] and s['room'] == 'lobby' and s['id'] == pid)(state(d)),
                     timeout=30)
            tcp = LinePlayer(tcp_port, 'term2')
            tcp.request('JOIN lobby')
            # Play goes on after it: the phone places piece 3.
            touch_drag(phone, piece(phone, 3), cell(phone, 1, 0))
            tcp.wait_for('piece 3 placed after the restart', lambda l: f' placed 3 {phone_id} cell 1 0 0' in l)
            wait(laptop, 'piece 3 placed, seen by the laptop', lambda d: placed_at(d, 3, 1, 0))

        # --- The laptop solves the 2x2 room and asks for the next puzzle.
        join_other(laptop, 'tiny')
        for i in range(4):
            r, c = divmod(i, 2)
            mouse_drag(laptop, piece(laptop, i), cell(laptop, r, c))
            wait(laptop, f'piece {i} placed', lambda d: placed_at(d, i, r, c))
        wait(laptop, 'the solved banner', lambda d: d.find_element(By.ID, 'solved').is_displayed())
        shot(laptop, args.shots, 'laptop-solved')
        laptop.find_element(By.ID, 'b-next').click()
        wait(laptop, 'the next puzzle, 3x3', lambda d: (lambda s: s['puzzle'] == 1 and s['rows'] == 3 and not s['solved'])(state(d)))

        # --- A piece held still under the mouse is kept (KEEP) past its 4.5 s lease (long enough that a
        # loaded machine that starves the page a second or two cannot make it lapse).
        join_other(laptop, 'keep')
        p0 = piece(laptop, 0)
        ab = ActionBuilder(laptop)
        ab.pointer_action.move_to_location(int(p0['x']), int(p0['y']))
        ab.pointer_action.pointer_down(MouseButton.LEFT)
        ab.perform()
        wait(laptop, 'four leases renewed by KEEP while the button is down (past the lease)',
             lambda d: sum(1 for l in js(d, 'return window.puzzlePage.debug.trace') if l.startswith('< OK kept 0 ')) >= 4)
        trace = js(laptop, 'return window.puzzlePage.debug.trace')
        if any(' expired 0 ' in l for l in trace) or piece(laptop, 0)['holder'] != state(laptop)['id']:
            raise Failure('the held piece lapsed while the button was down: ' + ' | '.join(trace[-12:]))
        ab = ActionBuilder(laptop)
        ab.pointer_action.pointer_up(MouseButton.LEFT)
        ab.perform()
        wait(laptop, 'the kept piece put down', lambda d: not piece(d, 0)['holder'])
        # A piece taken with Tab and left: no KEEP goes out, a countdown shows, then it goes back.
        js(laptop, "document.getElementById('table').focus()")
        ActionChains(laptop).send_keys(Keys.TAB).perform()
        wait(laptop, 'the countdown by the piece left in hand', lambda d: state(d)['countdown'] > 0)
        time.sleep(0.3)  # drawn within a quarter second
        shot(laptop, args.shots, 'laptop-countdown')
        wait(laptop, 'the message that the piece went back', lambda d: 'went back' in messages(d) and state(d)['holding'] < 0)

        # --- The phone turns a piece it holds with a second finger's twist, then drops it.
        join_other(phone, 'turn')
        p5 = piece(phone, 5)
        f1 = {'x': p5['x'], 'y': p5['y'], 'id': 1}
        touch(phone, 'touchStart', [f1])
        touch(phone, 'touchMove', [dict(f1, x=f1['x'] + 6)])
        f1['x'] += 6
        wait(phone, 'the phone to hold piece 5', lambda d: piece(d, 5)['holder'] == state(d)['id'])
        # The second finger goes a quarter round the first, clockwise.
        touch(phone, 'touchStart', [f1, {'x': f1['x'] + 80, 'y': f1['y'], 'id': 2}])
        for a in range(10, 91, 10):
            rad = math.radians(a)
            touch(phone, 'touchMove', [f1, {'x': f1['x'] + 80 * math.cos(rad), 'y': f1['y'] + 80 * math.sin(rad), 'id': 2}])
        wait(phone, 'a quarter turn from the twist', lambda d: any(l.startswith('< OK rotated 5 ') for l in js(d, 'return window.puzzlePage.debug.trace')))
        touch(phone, 'touchEnd', [])
        wait(phone, 'piece 5 down, turned', lambda d: (lambda p: not p['holder'] and p['rot'] == (p5['rot'] + 1) % 4)(piece(d, 5)))

        # --- Watching: a room of two seats, taken by the TCP player and the phone. The laptop's
        # Join is refused (a Watch offered), it watches from the rooms list, sees the phone's drop
        # live, cannot grab, chats, then joins to play once a seat is free.
        tcp.request('CREATE stage jigsaw 3x3 seats=2')
        tcp.request('JOIN stage')
        join_other(phone, 'stage')
        laptop.find_element(By.ID, 'b-rooms').click()
        wait(laptop, 'the Join of the full room clicked', lambda d: click_listed(d, '#rooms button[data-room="stage"]'))
        wait(laptop, 'a Watch offered for the full room', lambda d: d.find_elements(By.ID, 'full-watch'))
        # The refusal reads in the server's text for ROOM_FULL (/errors.js, the page's one table).
        full_text = js(laptop, 'return window.puzzleErrors && window.puzzleErrors.ROOM_FULL')
        if full_text != 'Every seat of that room is taken.':
            raise Failure(f'errors.js gave ROOM_FULL the text {full_text!r}')
        lobby_text = laptop.find_element(By.ID, 'lobby-error').text
        if not lobby_text.startswith(f'stage: {full_text}'):
            raise Failure(f'the full room said {lobby_text!r}, not ROOM_FULL\'s text')
        shot(laptop, args.shots, 'laptop-room-full')
        wait(laptop, 'the Watch of the room clicked', lambda d: click_listed(d, '#rooms button[data-watch="stage"]'))
        wait(laptop, 'the laptop watching stage', lambda d: (lambda s: s['inGame'] and s['watching'] and s['room'] == 'stage')(state(d)))
        tcp.wait_for('the laptop watching', lambda l: re.search(rf'^EV \d+ watching {laptop_id} laptop$', l))
        wait(phone, 'the phone to list the laptop watching', lambda d: 'laptop' in state(d)['watchers'])
        watch_start = len(js(laptop, 'return window.puzzlePage.debug.trace'))
        def laptop_sees_hold():
            wait(laptop, 'the watcher to see the phone hold piece 4', lambda d: piece(d, 4)['holder'] == phone_id)
        touch_drag(phone, piece(phone, 4), cell(phone, 1, 1), while_down=laptop_sees_hold)
        wait(laptop, 'the phone\'s drop, seen by the watcher', lambda d: placed_at(d, 4, 1, 1))
        # A watcher's drag and Tab take nothing.
        mouse_drag(laptop, piece(laptop, 0), cell(laptop, 0, 0))
        js(laptop, "document.getElementById('table').focus()")
        ActionChains(laptop).send_keys(Keys.TAB).perform()
        tcp.request('WHO')
        who = [l for l in tcp.lines if l.startswith('S who ')]
        if f'S who {laptop_id} laptop watching' not in who or any(f' grabbed 0 {laptop_id}' in l for l in tcp.lines):
            raise Failure(f'the watcher is not listed watching, or it grabbed: {who} {tcp.lines}')
        sent = [l for l in js(laptop, 'return window.puzzlePage.debug.trace')[watch_start:] if l.startswith('> ')]
        if any(l.startswith(('> GRAB', '> DRAG', '> KEEP')) for l in sent) or piece(laptop, 0)['cell']:
            raise Failure(f'the watcher sent a play request: {sent}')
        # A dropped link: the watcher comes back watching (WATCH, not REJOIN).
        count = lambda d, start: sum(1 for l in js(d, 'return window.puzzlePage.debug.trace') if l.startswith(start))
        watches = count(laptop, '> WATCH stage')
        js(laptop, 'window.puzzlePage.dropLink()')
        wait(laptop, 'the watcher back after its link dropped',
             lambda d: count(d, '> WATCH stage') > watches and (lambda s: s['connected'] and s['watching'] and s['room'] == 'stage')(state(d)))
        trace = js(laptop, 'return window.puzzlePage.debug.trace')
        since = trace[max(i for i, l in enumerate(trace) if l.startswith('> HELLO')):]
        if any(l.startswith(('> REJOIN', '> JOIN')) for l in since):
            raise Failure(f'the watcher came back as a player: {since}')
        laptop.find_element(By.ID, 'chat-input').send_keys('just watching 👀', Keys.ENTER)
        wait(phone, 'the watcher\'s chat on the phone', lambda d: 'laptop: just watching 👀' in messages(d))
        tcp.wait_for('the watcher\'s chat', lambda l: l.endswith(f' say {laptop_id} just watching 👀'))
        laptop.find_element(By.ID, 'b-who').click()
        wait(laptop, 'the watchers in the players panel', lambda d: 'laptop (you)' in d.find_element(By.ID, 'watch-list').text)
        shot(laptop, args.shots, 'laptop-watching')
        shot(phone, args.shots, 'phone-watched')
        laptop.find_element(By.ID, 'b-who').click()
        tcp.request('LEAVE')  # a seat for the laptop
        laptop.find_element(By.ID, 'b-join').click()
        wait(laptop, 'the laptop playing in stage', lambda d: (lambda s: s['joined'] and not s['watching'] and s['room'] == 'stage')(state(d)))
        wait(phone, 'the phone to see the laptop join', lambda d: 'laptop joined' in messages(d) and 'laptop' not in state(d)['watchers'])
        mouse_drag(laptop, piece(laptop, 0), cell(laptop, 0, 0))
        wait(phone, 'the laptop\'s drop, seen by the phone', lambda d: placed_at(d, 0, 0, 0))
        shot(laptop, args.shots, 'laptop-joined-from-watching')

        # --- The laptop creates a room with a password; the phone is refused a wrong one, then joins.
        laptop.find_element(By.ID, 'b-rooms').click()
        laptop.find_element(By.CSS_SELECTOR, '#create-box summary').click()
        for field, value in (('c-name', 'secret'), ('c-rows', '2'), ('c-cols', '3'), ('c-password', 'open-sesame')):
            box = laptop.find_element(By.ID, field)
            box.clear()
            box.send_keys(value)
        laptop.find_element(By.CSS_SELECTOR, '#create-form button[type=submit]').click()
        wait(laptop, 'the created room joined', lambda d: (lambda s: s['inGame'] and s['room'] == 'secret' and s['cols'] == 3)(state(d)))
        phone.find_element(By.ID, 'b-rooms').click()
        pw = wait(phone, 'the password field of the new room',
                  lambda d: d.find_elements(By.CSS_SELECTOR, 'input[aria-label="password of secret"]'))[0]
        pw.send_keys('sesame', Keys.ENTER)
        wait(phone, 'the wrong password refused', lambda d: d.find_element(By.ID, 'lobby-error').text == 'secret: Wrong room password')
        shot(phone, args.shots, 'phone-wrong-password')
        pw = phone.find_element(By.CSS_SELECTOR, 'input[aria-label="password of secret"]')
        pw.clear()
        pw.send_keys('open-sesame', Keys.ENTER)
        wait(phone, 'the phone in the room with the password', lambda d: (lambda s: s['inGame'] and s['room'] == 'secret')(state(d)))

        # --- Photos of one's own (issue 18): the laptop picks a JPEG with the file
        # input, the phone drops one on the form; each is uploaded (UPLOAD, DATA
        # lines), then a room is made of it and joined.
        fixtures = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'PuzzleImagesTests', 'Fixtures')
        laptop.find_element(By.ID, 'b-rooms').click()
        wait(laptop, 'the rooms shown', lambda d: d.find_element(By.ID, 'lobby').is_displayed())
        if not laptop.find_element(By.ID, 'create-form').is_displayed():
            laptop.find_element(By.CSS_SELECTOR, '#create-box summary').click()
        for field, value in (('c-name', 'photo'), ('c-rows', '4'), ('c-cols', '4'), ('c-password', '')):
            box = laptop.find_element(By.ID, field)
            box.clear()
            if value:
                box.send_keys(value)
        laptop.find_element(By.ID, 'c-picture').send_keys(os.path.abspath(os.path.join(fixtures, 'jpeg-large-420.jpg')))
        wait(laptop, 'the photo chosen', lambda d: 'jpeg-large-420.jpg (31 KB)' in d.find_element(By.ID, 'c-picture-note').text)
        shot(laptop, args.shots, 'laptop-photo-chosen')
        # A flaky link: the sharp picture's first fetches fail (blocked here);
        # the page must try again later, not keep the small one for good.
        laptop.execute_cdp_cmd('Network.enable', {})
        laptop.execute_cdp_cmd('Network.setBlockedURLs', {'urls': ['*/picture/*']})
        laptop.find_element(By.CSS_SELECTOR, '#create-form button[type=submit]').click()
        wait(laptop, 'the room made of the photo joined',
             lambda d: (lambda s: s['inGame'] and s['room'] == 'photo' and s['cols'] == 4)(state(d)))
        wait(laptop, 'the small picture drawn and /picture failed', lambda d: (lambda s: s['hasPicture'] and s['hiBackoff'] > 0)(state(d)))
        if state(laptop)['hiPicture'] > 0:
            raise Failure('a sharp picture came though /picture was blocked')
        laptop.execute_cdp_cmd('Network.setBlockedURLs', {'urls': []})
        trace = '\n'.join(js(laptop, 'return window.puzzlePage.debug.trace') or [])
        if '< OK uploaded photo 1100x1000 sha256=' not in trace:
            raise Failure(f'no upload seen in the laptop\'s lines: {trace[-2000:]}')
        wait(laptop, 'the photo drawn sharp', lambda d: state(d)['hiPicture'] > 0)
        shot(laptop, args.shots, 'laptop-photo-room')
        # The phone: a file dropped on the rooms' card (as from a file manager).
        phone.find_element(By.ID, 'b-rooms').click()
        wait(phone, 'the phone\'s rooms', lambda d: d.find_element(By.ID, 'lobby').is_displayed())
        with open(os.path.join(fixtures, 'jpeg-exif-6.jpg'), 'rb') as f:
            small = list(f.read())
        js(phone, '''
            const file = new File([new Uint8Array(arguments[0])], 'IMG 2041.jpg', { type: 'image/jpeg' });
            const dt = new DataTransfer();
            dt.items.add(file);
            const box = document.getElementById('rooms-box');
            box.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
            box.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
        ''', small)
        wait(phone, 'the dropped photo chosen', lambda d: d.find_element(By.ID, 'c-name').get_attribute('value') == 'IMG_2041')
        for field, value in (('c-rows', '2'), ('c-cols', '3'), ('c-password', '')):
            box = phone.find_element(By.ID, field)
            box.clear()
            if value:
                box.send_keys(value)
        shot(phone, args.shots, 'phone-photo-dropped')
        phone.find_element(By.CSS_SELECTOR, '#create-form button[type=submit]').click()
        wait(phone, 'the room made of the dropped photo joined',
             lambda d: (lambda s: s['inGame'] and s['room'] == 'IMG_2041' and s['cols'] == 3)(state(d)))
        shot(phone, args.shots, 'phone-photo-room')
        # Anyone may use a photo by name: the TCP player makes a room of the laptop's.
        if not tcp.request('CREATE photo2 jigsaw 2x2 picture=photo').startswith('OK created photo2'):
            raise Failure('the uploaded photo could not be used by name')
        join_other(phone, 'photo')
        shot(phone, args.shots, 'phone-photo-joined')

        # --- Parts (issue 28): three players build one part on the table of a
        # 4x4 (40x24 units, the board at 12,4; x 0 to 8 is the margin), then
        # the laptop carries the whole of it into the board.
        parts_scenario(laptop, phone, tcp, args.shots)

        # --- The solve (issue 29): the banner's numbers, the solved puzzles, a replay watched.
        solve_scenario(laptop, phone, tcp, args.shots)

        # --- A 30x30 at both sizes (to look at).
        join_other(laptop, 'big')
        shot(laptop, args.shots, 'laptop-30x30')
        join_other(phone, 'big')
        shot(phone, args.shots, 'phone-30x30')

        # --- Everyone comes back as they were (issue 29).
        come_back_scenario(laptop, url, args.shots)

        # --- The page catches up with the terminal (issue 29).
        tools_scenario(laptop, phone, tcp, tcp_port, args.shots)

        # Script errors fail the test (a failed fetch does not: the page has a fallback for each).
        errors = [e for d in (laptop, phone) for e in d.get_log('browser')
                  if e['level'] == 'SEVERE' and e.get('source') != 'network']
        if errors:
            raise Failure(f'errors in the browser console: {errors}')
        print('@passed', flush=True)
        return 0
    except Exception as e:  # noqa: BLE001 - any failure: say it, with screenshots and the pages' last lines
        log('FAILED:', e if isinstance(e, Failure) else repr(e))
        for name, d in (('laptop', laptop), ('phone', phone)):
            if d:
                try:
                    shot(d, args.shots, f'failure-{name}')
                    log(name, 'console:', d.get_log('browser'))
                    log(name, 'last lines:\n' + '\n'.join(js(d, 'return window.puzzlePage.debug.trace.slice(-60)') or []))
                except Exception:  # noqa: BLE001 - the failure is what matters
                    pass
        return 1
    finally:
        if tcp:
            tcp.close()
        for d in (laptop, phone):
            if d:
                d.quit()


def reopen(d, address):
    """The page opened again (a new load, not a jump within the page)."""
    d.get('about:blank')
    d.get(address)


def come_back_scenario(laptop, url, shots):
    """A page opened again at the server's plain address goes back to the
    room its player was in, as the same player; `#ROOM` still chooses
    another, and a room gone since lands on the list saying so."""
    before = state(laptop)
    if before['room'] != 'big' or not before['inGame']:
        raise Failure(f'the laptop should play in big: {before}')
    reopen(laptop, url)
    wait(laptop, 'the laptop back in big, reopened at the plain address',
         lambda d: (lambda s: s['inGame'] and s['room'] == 'big' and s['id'] == before['id'])(state(d)))
    shot(laptop, shots, 'laptop-back-in-big')
    # The address chooses another room, which is then the one to go back to.
    reopen(laptop, url + '#lobby')
    wait(laptop, 'the laptop in lobby, as the address says', lambda d: (lambda s: s['inGame'] and s['room'] == 'lobby')(state(d)))
    reopen(laptop, url)
    wait(laptop, 'the laptop back in lobby', lambda d: (lambda s: s['inGame'] and s['room'] == 'lobby')(state(d)))
    # The room it was in is gone: the room list, with a word why.
    js(laptop, "localStorage.setItem('puzzle-room:room:' + location.host + ':laptop', 'nowhere')")
    reopen(laptop, url)
    wait(laptop, 'the rooms list, saying the room is gone',
         lambda d: 'The room nowhere, where you were, is gone.' in d.find_element(By.ID, 'lobby-error').text
         and d.find_elements(By.CSS_SELECTOR, '#rooms button[data-room]'))
    shot(laptop, shots, 'laptop-room-gone')
    # Forgotten: opened again, it stays on the list; a click still joins.
    reopen(laptop, url)
    wait(laptop, 'the rooms list again', lambda d: d.find_elements(By.CSS_SELECTOR, '#rooms button[data-room]'))
    if state(laptop)['room']:
        raise Failure(f'a forgotten room was gone back to: {state(laptop)}')
    join(laptop, 'big')


def point(d, x, y):
    return js(d, 'return window.puzzlePage.point(arguments[0], arguments[1])', x, y)


def parts(d):
    return js(d, 'return window.puzzlePage.parts()')


def parts_scenario(laptop, phone, tcp, shots):
    if not tcp.request('CREATE parts jigsaw 4x4').startswith('OK created parts'):
        raise Failure('no room for the parts')
    tcp.request('JOIN parts')
    join_other(laptop, 'parts')
    join_other(phone, 'parts')
    # The laptop lays 0, then 1 a unit off beside it: they join.
    mouse_drag(laptop, piece(laptop, 0), point(laptop, 0, 4))
    wait(laptop, 'piece 0 laid at 0,4', lambda d: (lambda p: not p['holder'] and p['tx'] == 0 and p['ty'] == 4)(piece(d, 0)))
    mouse_drag(laptop, piece(laptop, 1), point(laptop, 5, 5))
    wait(phone, 'the phone sees 0 and 1 joined', lambda d: parts(d) == [{'id': 0, 'members': [0, 1]}])
    # The phone lays 4 under 0 by touch: it joins their part.
    touch_drag(phone, piece(phone, 4), point(phone, 1, 9))
    wait(laptop, 'the laptop sees 4 joined', lambda d: parts(d) == [{'id': 0, 'members': [0, 1, 4]}])
    # The TCP player lays 5 in the corner between 1 and 4.
    for line in ('GRAB 5', 'DRAG 5 4 7'):
        if not tcp.request(line).startswith('OK'):
            raise Failure(f'{line} refused')
    if tcp.request('DROP 5') != 'OK dropped 5 table 4 8':
        raise Failure('piece 5 did not snap beside 1 and 4')
    for d in (laptop, phone):
        wait(d, 'the part of four', lambda d: parts(d) == [{'id': 0, 'members': [0, 1, 4, 5]}])
    for i, (x, y) in ((1, (4, 4)), (4, (0, 8)), (5, (4, 8))):
        wait(phone, f'piece {i} in its place in the part', lambda d: (lambda p: p['tx'] == x and p['ty'] == y)(piece(d, i)))
    shot(laptop, shots, 'laptop-part-built')
    shot(phone, shots, 'phone-part-built')

    # The laptop takes the part by piece 5 and carries it over the board:
    # the phone sees it held whole and all four target cells.
    def held_seen():
        wait(phone, 'the phone sees the whole part held by the laptop',
             lambda d: sorted(h['piece'] for h in state(d)['held']) == [0, 1, 4, 5])
        wait(phone, 'the target of the part', lambda d: any(h['target'] == '1,1' for h in state(d)['held']))
        shot(laptop, shots, 'laptop-part-held')
        shot(phone, shots, 'phone-part-held')
    mouse_drag(laptop, piece(laptop, 5), cell(laptop, 1, 1), while_down=held_seen)
    for d in (laptop, phone):
        for i, (r, c) in ((0, (0, 0)), (1, (0, 1)), (4, (1, 0)), (5, (1, 1))):
            wait(d, f'piece {i} in cell {r},{c}', lambda d: placed_at(d, i, r, c))
        wait(d, 'the part gone, its pieces on the board', lambda d: parts(d) == [])
    tcp.wait_for('the TCP player told of the drop', lambda line: line.startswith('EV ') and ' placed 5 ' in line and ' cell 1 1 ' in line)
    shot(laptop, shots, 'laptop-part-placed')


def replay(d):
    return js(d, 'return window.puzzleReplay.state()')


def below_bar(d, el):
    """Whether element `el` lies wholly under the bar (it covers no button)."""
    return js(d, "return document.getElementById(arguments[0]).getBoundingClientRect().top >= "
                 "document.getElementById('bar').getBoundingClientRect().bottom", el)


def solve_scenario(laptop, phone, tcp, shots):
    """A 2x2 solved by the phone and the laptop, pieces 2 and 3 joined on the
    table first (a join in the replay); both see the numbers in the banner;
    the solved puzzles listed; the replay watched, paused, stepped both ways,
    while the room goes on to its next puzzle underneath; back to the room."""
    if not tcp.request('CREATE solve jigsaw 2x2 picture=rings pictures=fixed').startswith('OK created solve'):
        raise Failure('no room for the solve')
    join_other(laptop, 'solve')
    join_other(phone, 'solve')
    # The table is 24 x 16, the board at 8,4, the pieces' start slots at x 0 and x 20: above the
    # board (y 0, row -1) is two rows from row 1, no target there for 2 and 3, and no piece under.
    touch_drag(phone, piece(phone, 0), cell(phone, 0, 0))
    wait(laptop, 'piece 0 placed by the phone', lambda d: placed_at(d, 0, 0, 0))
    mouse_drag(laptop, piece(laptop, 1), cell(laptop, 0, 1))
    wait(laptop, 'piece 1 placed', lambda d: placed_at(d, 1, 0, 1))
    mouse_drag(laptop, piece(laptop, 2), point(laptop, 8, 0))
    wait(laptop, 'piece 2 laid at 8,0', lambda d: (lambda p: not p['holder'] and not p['cell'] and p['tx'] == 8 and p['ty'] == 0)(piece(d, 2)))
    mouse_drag(laptop, piece(laptop, 3), point(laptop, 12, 0))
    wait(laptop, '2 and 3 joined', lambda d: parts(d) == [{'id': 2, 'members': [2, 3]}])
    mouse_drag(laptop, piece(laptop, 2), cell(laptop, 1, 0))
    for d in (laptop, phone):
        wait(d, 'the solved banner with its numbers',
             lambda d: d.find_element(By.ID, 'solved').is_displayed()
             and d.find_element(By.ID, 'solved-stats').text == '5 moves; placed: laptop 3, phone 1')
        if not below_bar(d, 'solved'):
            raise Failure('the solved banner covers the bar')
    shot(laptop, shots, 'laptop-solve-banner')
    shot(phone, shots, 'phone-solve-banner')

    # The solved puzzles, from the bar's button: one, with its numbers and a Watch button.
    laptop.find_element(By.ID, 'b-solves').click()
    wait(laptop, 'the solved puzzles listed', lambda d: len(d.find_elements(By.CSS_SELECTOR, '#solves-list li')) == 1)
    entry = laptop.find_element(By.CSS_SELECTOR, '#solves-list li').text
    for want in ('Puzzle 0', 'jigsaw 2×2', '5 moves; placed: laptop 3, phone 1', '2 players'):
        if want not in entry:
            raise Failure(f'the solved puzzle\'s entry lacks {want!r}: {entry!r}')
    shot(laptop, shots, 'laptop-solved-list')
    laptop.find_element(By.CSS_SELECTOR, '#solves-list button[data-puzzle="0"]').click()
    wait(laptop, 'the replay open', lambda d: replay(d)['open'])
    if laptop.find_element(By.ID, 'solves').is_displayed():
        raise Failure('the list stays over the replay')
    # It plays (4x) to the end: the solved board, the numbers.
    wait(laptop, 'the replay played to its end', lambda d: (lambda r: r['atEnd'] and r['placed'] == 4 and r['moves'] == 5)(replay(d)))
    if 'Solved in' not in replay(laptop)['move']:
        raise Failure(f'the replay\'s end says: {replay(laptop)["move"]}')
    wait(laptop, 'the pieces still, the picture sharp', lambda d: (lambda r: r['settled'] and r['sharp'] >= 256)(replay(d)))
    shot(laptop, shots, 'laptop-replay-end')
    # Again (play at the end), the end, from the start still paused; a move on
    # at a time (the join comes with its move), and back.
    laptop.find_element(By.ID, 'replay-play').click()
    wait(laptop, 'playing again', lambda d: not replay(d)['atEnd'])
    # The end button pauses there (whenever it lands: a loaded machine may be slow to click).
    laptop.find_element(By.ID, 'replay-end').click()
    wait(laptop, 'paused at the end', lambda d: (lambda r: r['paused'] and r['atEnd'])(replay(d)))
    laptop.find_element(By.ID, 'replay-restart').click()
    wait(laptop, 'paused at the start', lambda d: (lambda r: r['paused'] and r['moves'] == 0)(replay(d)))
    for n in range(1, 5):
        laptop.find_element(By.ID, 'replay-next').click()
        wait(laptop, f'move {n} shown', lambda d: replay(d)['moves'] == n)
    # The caption may follow the count by a frame: waited for, not read at once.
    joined = lambda r: r['parts'] == 1 and r['placed'] == 2 and r['move'].startswith('Move 4/5 · laptop put piece 3 on the table')
    try:
        wait(laptop, 'move 4 with 2 and 3 joined on the table', lambda d: joined(replay(d)))
    except Exception:
        raise Failure(f'after move 4, 2 and 3 are joined on the table: {replay(laptop)}')
    wait(laptop, 'the pieces still', lambda d: replay(d)['settled'])
    shot(laptop, shots, 'laptop-replay-step')
    ActionChains(laptop).send_keys(Keys.ARROW_LEFT).perform()
    wait(laptop, 'a move back by key, the join undone with it', lambda d: (lambda r: r['moves'] == 3 and r['parts'] == 0)(replay(d)))
    laptop.find_element(By.ID, 'replay-faster').click()
    wait(laptop, '8x', lambda d: replay(d)['speed'] == 8)
    # The room goes on underneath: the phone asks for the next puzzle; the laptop's live room follows.
    phone.find_element(By.ID, 'b-next').click()
    wait(laptop, 'the live room on its next puzzle under the replay',
         lambda d: (lambda s: s['puzzle'] == 1 and s['rows'] == 3 and not s['solved'])(state(d)) and replay(d)['open'])
    if replay(laptop)['moves'] != 3:
        raise Failure('the replay moved with the live room')
    laptop.find_element(By.ID, 'replay-back').click()
    wait(laptop, 'back to the room', lambda d: not replay(d)['open'] and not d.find_element(By.ID, 'replay').is_displayed())

    # The phone: the list from the bar, the replay watched at a phone's size, stepped, back.
    phone.find_element(By.ID, 'b-solves').click()
    wait(phone, 'the solved puzzles on the phone', lambda d: d.find_elements(By.CSS_SELECTOR, '#solves-list button[data-puzzle="0"]'))
    shot(phone, shots, 'phone-solved-list')
    phone.find_element(By.CSS_SELECTOR, '#solves-list button[data-puzzle="0"]').click()
    wait(phone, 'the replay open on the phone', lambda d: replay(d)['open'])
    phone.find_element(By.ID, 'replay-end').click()
    wait(phone, 'paused on the phone', lambda d: replay(d)['paused'])
    phone.find_element(By.ID, 'replay-restart').click()
    wait(phone, 'paused on the phone, at the start', lambda d: (lambda r: r['paused'] and r['moves'] == 0)(replay(d)))
    for _ in range(4):
        phone.find_element(By.ID, 'replay-next').click()
    wait(phone, 'move 4 on the phone', lambda d: (lambda r: r['moves'] == 4 and r['settled'])(replay(d)))
    shot(phone, shots, 'phone-replay-step')
    phone.find_element(By.ID, 'replay-back').click()
    wait(phone, 'the phone back in the room, on the next puzzle', lambda d: not replay(d)['open'] and state(d)['puzzle'] == 1)


def click_listed(d, css):
    """Clicks a button of the rooms list (redrawn every few seconds: it may be gone by the click)."""
    try:
        buttons = d.find_elements(By.CSS_SELECTOR, css)
        if not buttons:
            return False
        buttons[0].click()
        return True
    except StaleElementReferenceException:
        return False


def join_other(d, room):
    """Back to the rooms (the ☰ button) and into another room. The click is
    repeated until the rooms show: right after a two-finger gesture on the
    phone a first click was seen to go nowhere (noted for a closer look)."""
    def rooms_shown(d):
        if not d.find_element(By.ID, 'lobby').is_displayed():
            d.find_element(By.ID, 'b-rooms').click()
            return False
        return True
    wait(d, 'the rooms list shown', rooms_shown)
    join(d, room)


def view(d):
    return js(d, 'return window.puzzlePage.view()')


def tools(d):
    return js(d, 'return window.puzzlePage.tools()')


def toast_text(d):
    el = d.find_element(By.ID, 'toast')
    return el.text if el.is_displayed() else ''


def rect(d, css):
    return js(d, 'const r = document.querySelector(arguments[0]).getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: r.height, bottom: r.bottom, right: r.right }', css)


def same_view(a, b, what):
    if abs(a['scale'] - b['scale']) > 1e-6 or abs(a['ox'] - b['ox']) > 0.5 or abs(a['oy'] - b['oy']) > 0.5:
        raise Failure(f'{what}: the view was {a}, now {b}')


def fits(v):
    """The view is the fit of the screen the table has (not under the chat, none of it cut off)."""
    f = v['fit']
    return v['fitted'] and abs(v['scale'] - f['scale']) < 1e-6 and abs(v['ox'] - f['ox']) < 0.5 and abs(v['oy'] - f['oy']) < 0.5


def keys(d, *ks):
    js(d, "document.getElementById('table').focus()")
    ActionChains(d).send_keys(*ks).perform()


def loose_piece_at_left(d, count):
    """A loose piece lying in the table's left margin, left of the board."""
    i = js(d, """for (let i = 0; i < arguments[0]; i++) { const p = window.puzzlePage.piece(i);
        if (p && !p.cell && !p.holder && p.tx < 6) return i; } return -1;""", count)
    if i < 0:
        raise Failure('no loose piece in the left margin')
    return i


def last_drag_x(d, i):
    xs = [int(l.split()[3]) for l in js(d, 'return window.puzzlePage.debug.trace') if l.startswith(f'> DRAG {i} ')]
    return xs[-1] if xs else None


def tools_scenario(laptop, phone, tcp, tcp_port, shots):
    """Issue 29, the page catching up with the terminal: the big-puzzle tools
    (keys and buttons), a piece carried across a zoomed-in table by the view
    scrolling at the edge (touch and mouse), a reconnect keeping the zoom, a
    press on a held piece, name tags stacked, the chat's limit, a solved
    banner below the bar, a new puzzle fitted, the phone turned, and the room
    list following a second player in."""
    for d in (laptop, phone):
        if not (lambda s: s['inGame'] and s['room'] == 'big' and not s['watching'])(state(d)):
            join_other(d, 'big')
    tcp.request('JOIN big')
    # --- Find by keys: G, the number, Enter: marked, zoomed in, in the middle; the map shows.
    keys(laptop, 'g')
    wait(laptop, 'the find box focused', lambda d: js(d, 'return document.activeElement.id') == 'find-input')
    ActionChains(laptop).send_keys('465', Keys.ENTER).perform()
    wait(laptop, 'piece 465 marked', lambda d: tools(d)['found'] == 465 and 'Piece 465 marked' in toast_text(d))
    v, p = view(laptop), piece(laptop, 465)
    a = v['area']
    cellpx = v['scale'] * 4
    if not (a['x'] + cellpx <= p['x'] <= a['x'] + a['w'] - cellpx and a['y'] + cellpx <= p['y'] <= a['y'] + a['h'] - cellpx) or cellpx < 40:
        raise Failure(f'piece 465 not brought into view zoomed in: {p} {v}')
    box = wait(laptop, 'the mini-map', lambda d: tools(d)['mapBox'])
    keys(laptop, 'i')
    wait(laptop, 'piece numbers on', lambda d: tools(d)['numbers'])
    shot(laptop, shots, 'laptop-tools-find')
    # --- A press on the map takes the view there.
    sx, sy = box['x'] + box['w'] * 0.2, box['y'] + box['h'] * 0.6
    ab = ActionBuilder(laptop)
    ab.pointer_action.move_to_location(int(sx), int(sy))
    ab.pointer_action.click()
    ab.perform()
    tx, ty = (int(sx) - box['x']) / box['k'], (int(sy) - box['y']) / box['k']
    table = state(laptop)['table']
    def centred(d):
        # Centred there, as far as the table goes (no empty band along its edge).
        v = view(d)
        a, s = v['area'], v['scale']
        ox = min(a['x'], max(a['x'] + a['w'] - table['w'] * s, a['x'] + a['w'] / 2 - tx * s))
        oy = min(a['y'], max(a['y'] + a['h'] - table['h'] * s, a['y'] + a['h'] / 2 - ty * s))
        return abs(v['ox'] - ox) < 0.5 * s and abs(v['oy'] - oy) < 0.5 * s
    wait(laptop, 'the view centred where the map was pressed', centred)
    # --- Edges only (E): an inner loose piece can no longer be taken; A shows all again.
    keys(laptop, 'e')
    wait(laptop, 'edges only', lambda d: tools(d)['filter'] == 'edges')
    keys(laptop, '0')
    inner = next(i for i in range(31, 900) if 0 < i % 30 < 29 and i < 870 and not piece(laptop, i)['cell'])
    grabs = lambda d: sum(1 for l in js(d, 'return window.puzzlePage.debug.trace') if l.startswith('> GRAB'))
    g0 = grabs(laptop)
    ab = ActionBuilder(laptop)
    q = piece(laptop, inner)
    ab.pointer_action.move_to_location(int(q['x']), int(q['y']))
    ab.pointer_action.click()
    ab.perform()
    shot(laptop, shots, 'laptop-tools-edges')
    if grabs(laptop) != g0:
        raise Failure(f'a hidden inner piece ({inner}) was taken with edges only')
    keys(laptop, 'a', 'i')
    wait(laptop, 'every piece again, no numbers', lambda d: tools(d)['filter'] == 'all' and not tools(d)['numbers'])

    # --- The phone: the tools' buttons are a finger's size; Find by button.
    phone.find_element(By.ID, 'b-tools').click()
    for b in phone.find_elements(By.CSS_SELECTOR, '#toolstrip button'):
        r = b.rect
        if r['width'] < 44 or r['height'] < 44:
            raise Failure(f'a tool button is smaller than a finger: {b.get_attribute("id") or b.text} {r}')
    i = loose_piece_at_left(phone, 900)
    box = phone.find_element(By.ID, 'find-input')
    box.send_keys(str(i), Keys.ENTER)
    wait(phone, f'piece {i} found on the phone', lambda d: tools(d)['found'] == i)
    phone.find_element(By.ID, 'b-tools').click()
    if phone.find_element(By.ID, 'chat').get_attribute('hidden') is None:
        phone.find_element(By.ID, 'b-chat').click()
    # --- Carrying it far: the finger held at the right edge, the view scrolls under it.
    v0, p = view(phone), piece(phone, i)
    x0 = piece(phone, i)['tx']
    a = v0['area']
    f = {'x': p['x'], 'y': p['y'], 'id': 1}
    touch(phone, 'touchStart', [f])
    edge = a['x'] + a['w'] - 3
    for k in range(1, 11):
        touch(phone, 'touchMove', [dict(f, x=p['x'] + (edge - p['x']) * k / 10)])
    wait(phone, 'the view scrolling under the finger at the edge', lambda d: view(d)['ox'] < v0['ox'] - 300)
    carried = lambda d: (last_drag_x(d, i) or 0) > x0 + (edge - p['x'] + 300) / v0['scale']
    wait(phone, 'the piece carried with the view', carried)
    touch(phone, 'touchEnd', [])
    wait(phone, 'the piece let go', lambda d: state(d)['holding'] < 0)
    shot(phone, shots, 'phone-carried-far')
    # --- A reconnect keeps the zoom and the place.
    v1 = view(phone)
    hellos = lambda d: sum(1 for l in js(d, 'return window.puzzlePage.debug.trace') if l.startswith('> HELLO'))
    h0 = hellos(phone)
    js(phone, 'window.puzzlePage.dropLink()')
    wait(phone, 'the phone back after its link dropped', lambda d: hellos(d) > h0 and (lambda s: s['connected'] and s['joined'])(state(d)))
    wait(phone, 'the snapshot taken', lambda d: any(l.startswith('< OK joined big') for l in js(d, 'return window.puzzlePage.debug.trace')[-40:]))
    same_view(v1, view(phone), 'a reconnect')

    # --- The mouse carries a piece too.
    keys(laptop, 'g')
    j = loose_piece_at_left(laptop, 900)
    ActionChains(laptop).send_keys(str(j), Keys.ENTER).perform()
    wait(laptop, f'piece {j} found', lambda d: tools(d)['found'] == j)
    v0, p = view(laptop), piece(laptop, j)
    jx0 = p['tx']
    a = v0['area']
    edge = a['x'] + a['w'] - 3
    def laptop_scrolled():
        wait(laptop, 'the laptop\'s view scrolling at the edge', lambda d: view(d)['ox'] < v0['ox'] - 300)
        wait(laptop, 'the piece carried with the view', lambda d: (last_drag_x(d, j) or 0) > jx0 + (edge - p['x'] + 300) / v0['scale'])
    mouse_drag(laptop, p, {'x': edge, 'y': p['y']}, while_down=laptop_scrolled)
    wait(laptop, 'the piece let go', lambda d: state(d)['holding'] < 0)

    # --- A press on a piece someone holds: says who, does not pan.
    keys(laptop, 'g')
    ActionChains(laptop).send_keys('465', Keys.ENTER).perform()
    wait(laptop, 'piece 465 found again', lambda d: tools(d)['found'] == 465)
    tcp.request('GRAB 465')
    wait(laptop, 'the laptop sees 465 held', lambda d: piece(d, 465)['holder'] == tcp.id)
    v0 = view(laptop)
    p = piece(laptop, 465)
    mouse_drag(laptop, p, {'x': p['x'] + 150, 'y': p['y'] + 60})
    wait(laptop, 'who holds it said', lambda d: 'Piece 465 is held by term' in toast_text(d))
    same_view(v0, view(laptop), 'a press on a held piece')
    # --- Two players hold pieces side by side: their name tags do not overlap.
    other = LinePlayer(tcp_port, 'term-two')
    other.request('JOIN big')
    t = piece(laptop, 465)
    k = 466 if not piece(laptop, 466)['cell'] else 464
    other.request(f'GRAB {k}')
    other.request(f'DRAG {k} {t["tx"] + 1} {t["ty"] + 1}')
    def tags_apart(d):
        tags = js(d, 'return window.puzzlePage.debug.tags') or []
        if len(tags) != 2:
            return False
        a, b = tags
        return not (a['x'] < b['x'] + b['w'] and b['x'] < a['x'] + a['w'] and a['y'] < b['y'] + b['h'] and b['y'] < a['y'] + a['h'])
    wait(laptop, 'two name tags, stacked apart', tags_apart)
    shot(laptop, shots, 'laptop-tags-stacked')
    tcp.request('RELEASE 465')
    other.request(f'RELEASE {k}')
    other.request('LEAVE')
    other.close()

    # --- The chat takes the protocol's line, and says when a line is over it (nothing cut).
    box = laptop.find_element(By.ID, 'chat-input')
    long_line = 'x' * 900
    box.send_keys(long_line, Keys.ENTER)  # typed: the box itself must take it all
    lid = state(laptop)['id']
    tcp.wait_for('the 900-character line', lambda l: l.endswith(f' say {lid} {long_line}'))
    too_long = 'y' * 1100
    js(laptop, "const i = document.getElementById('chat-input'); i.value = arguments[0]; i.dispatchEvent(new Event('input'))", too_long)
    box.send_keys(Keys.ENTER)
    wait(laptop, 'the over-long line refused, kept', lambda d: 'Too long by 80 bytes' in d.find_element(By.ID, 'chat-note').text
         and d.find_element(By.ID, 'chat-input').get_attribute('value') == too_long and 'too long' in toast_text(d))
    if any(l.startswith('> SAY yyy') for l in js(laptop, 'return window.puzzlePage.debug.trace')):
        raise Failure('an over-long chat line was sent')
    js(laptop, "const i = document.getElementById('chat-input'); i.value = ''; i.dispatchEvent(new Event('input'))")

    # --- A puzzle solved: the banner below the phone's bar (two rows); Next: the new puzzle
    # fits the screen the table has, though both pages had zoomed and panned.
    tcp.request('CREATE duo jigsaw 2x2')
    tcp.request('JOIN duo')
    join_other(laptop, 'duo')
    join_other(phone, 'duo')
    for d in (laptop, phone):
        keys(d, '+', '+', Keys.ARROW_LEFT, Keys.ARROW_UP)
        wait(d, 'zoomed in and panned', lambda d: not view(d)['fitted'])
    tb = state(laptop)['table']
    for n in range(4):
        r, c = divmod(n, 2)
        tcp.request(f'GRAB {n}')
        tcp.request(f'DRAG {n} {tb["bx"] + 4 * c} {tb["by"] + 4 * r}')
        tcp.request(f'DROP {n}')
    for d in (laptop, phone):
        wait(d, 'the solved banner', lambda d: d.find_element(By.ID, 'solved').is_displayed())
    if rect(phone, '#solved')['y'] < rect(phone, '#bar')['bottom']:
        raise Failure(f'the solved banner covers the bar: {rect(phone, "#solved")} {rect(phone, "#bar")}')
    shot(phone, shots, 'phone-solved')
    phone.find_element(By.ID, 'b-next').click()
    for d in (laptop, phone):
        wait(d, 'the next puzzle', lambda d: state(d)['puzzle'] == 1 and not state(d)['solved'])
        wait(d, 'the new puzzle fitted to the screen the table has', lambda d: fits(view(d)))
    v = view(laptop)
    if v['ox'] + state(laptop)['table']['w'] * v['scale'] > rect(laptop, '#chat')['x']:
        raise Failure(f'the new table lies under the chat: {v}')

    # --- The phone on its side with the chat open: the table beside it, most of the screen;
    # back upright, the table fits again (no empty band).
    if phone.find_element(By.ID, 'chat').get_attribute('hidden') is not None:
        phone.find_element(By.ID, 'b-chat').click()
    phone.execute_cdp_cmd('Emulation.setDeviceMetricsOverride', {'width': 844, 'height': 390, 'deviceScaleFactor': 3, 'mobile': True})
    def beside(d):
        a = view(d)['area']
        return a['w'] >= 844 * 0.5 and a['h'] >= 390 * 0.6 and fits(view(d))
    wait(phone, 'the table beside the chat on its side', beside)
    shot(phone, shots, 'phone-landscape-chat')
    phone.execute_cdp_cmd('Emulation.setDeviceMetricsOverride', {'width': 390, 'height': 844, 'deviceScaleFactor': 3, 'mobile': True})
    wait(phone, 'the table fitted upright again', lambda d: view(d)['area']['w'] == 390 and fits(view(d)))

    # --- The room list lives: the phone looks at it while two players take a room's two seats.
    phone.find_element(By.ID, 'b-rooms').click()
    wait(phone, 'the rooms', lambda d: d.find_element(By.ID, 'lobby').is_displayed())
    tcp.request('CREATE pair jigsaw 2x2 seats=2')
    wait(phone, 'the new room listed with no one in it',
         lambda d: '0/2 players' in d.find_element(By.ID, 'rooms').text)
    second = LinePlayer(tcp_port, 'second')
    tcp.request('JOIN pair')
    second.request('JOIN pair')
    def full(d):
        # Read in one go: the list is redrawn every few seconds under the test.
        items = [t for t in js(d, "return [...document.querySelectorAll('#rooms li')].map((li) => li.innerText)") if t.startswith('pair')]
        return items and '2/2 players · full' in items[0] and 'Full' in items[0]
    wait(phone, 'the list showing the room full', full)
    shot(phone, shots, 'phone-rooms-full')
    second.close()
    tcp.request('LEAVE')


if __name__ == '__main__':
    sys.exit(main())
