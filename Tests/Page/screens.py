#!/usr/bin/env python3
"""Screenshots of the page at phone (390x844, touch) and laptop (1920x1080)
sizes, for a person to look at: before and after a change to the page, to see
that nothing moved. Not a test (page_test.py is); it starts its own server:

    swift build && python3 Tests/Page/screens.py --binary .build/debug/puzzle --out /tmp/shots-after

Each size: the name box, the room list, a 3x3 jigsaw with a piece a TCP
player holds (its name tag and drop target), the lid, the players panel, a
swap room, a 30x30 jigsaw, its tools (a piece found, numbers,
edges only), and on the phone, turned on its side with the chat open and back. The clock's digits differ from run to run.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'Browser'))
from page_test import LinePlayer, browser, js, state, wait  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

ROOMS = ['lobby jigsaw 3x3', 'quick swap 3x3 picture=waves', 'big jigsaw 30x30 picture=rings']


def start_server(binary, data):
    args = [binary, 'serve', '--port', '0', '--data', data, '--seed', '7', '--uploads', 'off']
    for r in ROOMS:
        args += ['--room', r]
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    m = re.search(r':(\d+) ', p.stdout.readline())
    if not m:
        p.kill()
        raise SystemExit('no port in the server banner')
    return p, int(m.group(1))


def settle(d):
    # Pieces glide to their places (about 55 ms a step): let them arrive.
    time.sleep(1.2)


def shoot(d, out, name):
    settle(d)
    d.save_screenshot(os.path.join(out, name + '.png'))
    print(os.path.join(out, name + '.png'))


def enter_room(d, room):
    js(d, 'location.hash = arguments[0]; location.reload()', room)
    wait(d, f'{room} joined', lambda d: (state(d) or {}).get('inGame') and state(d)['room'] == room
         and (state(d)['hiPicture'] or 0) > 0)


def run(port, out, size, width, height, touch, tcp):
    d = browser(width, height, touch)
    try:
        d.get(f'http://127.0.0.1:{port}/')
        wait(d, 'the name box', lambda d: d.find_element(By.ID, 'name').is_displayed())
        shoot(d, out, f'{size}-1-name')
        d.find_element(By.ID, 'name').send_keys(f'{size}\n')
        wait(d, 'the room list', lambda d: len(d.find_elements(By.CSS_SELECTOR, '#rooms li')) == len(ROOMS))
        shoot(d, out, f'{size}-2-rooms')
        enter_room(d, 'lobby')
        # The TCP player holds a piece over a cell: its tag and target show.
        tcp.request('GRAB 4')
        tcp.request('DRAG 4 12 4')
        wait(d, 'the held piece', lambda d: state(d)['held'])
        shoot(d, out, f'{size}-3-table')
        tcp.request('RELEASE 4')
        js(d, "document.getElementById('b-lid').click()")
        shoot(d, out, f'{size}-4-lid')
        js(d, "document.getElementById('lid-close').click(); document.getElementById('b-who').click()")
        wait(d, 'the players', lambda d: len(d.find_elements(By.CSS_SELECTOR, '#who-list li')) == 2)
        shoot(d, out, f'{size}-5-who')
        enter_room(d, 'quick')
        shoot(d, out, f'{size}-6-swap')
        enter_room(d, 'big')
        shoot(d, out, f'{size}-7-big')
        # The big-puzzle tools: piece 465 found (zoomed in, the map and rulers
        # show), piece numbers on; then edge pieces only, the whole table.
        js(d, "document.getElementById('b-tools').click()")
        box = d.find_element(By.ID, 'find-input')
        box.send_keys('465\n')
        js(d, "document.getElementById('t-numbers').click()")
        wait(d, 'the map', lambda d: js(d, 'return window.puzzlePage.tools().mapBox'))
        shoot(d, out, f'{size}-8-find')
        js(d, "document.getElementById('t-numbers').click(); document.getElementById('t-edges').click(); document.getElementById('b-fit').click()")
        shoot(d, out, f'{size}-9-edges')
        js(d, "document.getElementById('t-all').click(); document.getElementById('b-tools').click()")
        if touch:
            # On its side, the chat open: the chat beside the table.
            d.execute_cdp_cmd('Emulation.setDeviceMetricsOverride', {'width': height, 'height': width, 'deviceScaleFactor': 3, 'mobile': True})
            if d.find_element(By.ID, 'chat').get_attribute('hidden') is not None:
                js(d, "document.getElementById('b-chat').click()")
            shoot(d, out, f'{size}-10-landscape-chat')
            d.execute_cdp_cmd('Emulation.setDeviceMetricsOverride', {'width': width, 'height': height, 'deviceScaleFactor': 3, 'mobile': True})
            shoot(d, out, f'{size}-11-portrait-again')
    finally:
        d.quit()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--binary', default='.build/debug/puzzle')
    ap.add_argument('--out', required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    with tempfile.TemporaryDirectory() as data:
        server, port = start_server(a.binary, data)
        try:
            tcp = LinePlayer(port, 'tcp')
            tcp.request('JOIN lobby')
            run(port, a.out, 'phone', 390, 844, True, tcp)
            run(port, a.out, 'laptop', 1920, 1080, False, tcp)
            tcp.close()
        finally:
            server.terminate()
            server.wait()


if __name__ == '__main__':
    main()
