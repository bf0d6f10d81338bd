import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LineSplitter, parseQmpLine, QmpClient, QmpError } from './qmp';

describe('QMP framing', () => {
  it('splits a stream into lines, keeping a partial line for the next chunk', () => {
    const s = new LineSplitter();
    expect(s.push('{"return": {}, "id"')).toEqual([]);
    expect(s.push(': "c1"}\r\n{"event": "STOP"}\n\n{"ret')).toEqual([
      '{"return": {}, "id": "c1"}',
      '{"event": "STOP"}',
    ]);
    expect(s.push('urn": 1}\n')).toEqual(['{"return": 1}']);
  });

  it('tells greetings, returns, errors, events and garbage apart', () => {
    expect(
      parseQmpLine('{"QMP": {"version": {"qemu": {"major": 7}}, "capabilities": []}}'),
    ).toEqual({
      kind: 'greeting',
      version: { qemu: { major: 7 } },
    });
    expect(parseQmpLine('{"return": {}, "id": "c2"}')).toEqual({
      kind: 'return',
      id: 'c2',
      value: {},
    });
    expect(
      parseQmpLine(
        '{"id": "c3", "error": {"class": "CommandNotFound", "desc": "The command nope has not been found"}}',
      ),
    ).toEqual({
      kind: 'error',
      id: 'c3',
      errorClass: 'CommandNotFound',
      desc: 'The command nope has not been found',
    });
    expect(
      parseQmpLine(
        '{"timestamp": {"seconds": 1, "microseconds": 2}, "event": "SHUTDOWN", "data": {"guest": true}}',
      ),
    ).toMatchObject({
      kind: 'event',
      event: { event: 'SHUTDOWN', data: { guest: true } },
    });
    expect(parseQmpLine('not json').kind).toBe('garbage');
    expect(parseQmpLine('42').kind).toBe('garbage');
  });
});

/** A QMP server stand-in: greets, then answers each command through `answer`. */
async function fakeQemu(
  answer: (cmd: { execute: string; id?: string; arguments?: unknown }, sock: net.Socket) => void,
) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'qmp-test-'));
  const socketPath = path.join(dir, 'qmp.sock');
  const received: unknown[] = [];
  const server = net.createServer((sock) => {
    sock.write(
      '{"QMP": {"version": {"qemu": {"micro": 0, "minor": 2, "major": 7}}, "capabilities": ["oob"]}}\r\n',
    );
    const lines = new LineSplitter();
    sock.on('data', (chunk) => {
      for (const line of lines.push(chunk.toString())) {
        const cmd = JSON.parse(line);
        received.push(cmd);
        answer(cmd, sock);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return {
    socketPath,
    received,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

describe('QmpClient', () => {
  it('negotiates capabilities, matches replies by id (in any order, in split chunks), passes events', async () => {
    let held: { id?: string } | null = null;
    const qemu = await fakeQemu((cmd, sock) => {
      if (cmd.execute === 'qmp_capabilities') sock.write(`{"return": {}, "id": "${cmd.id}"}\r\n`);
      else if (cmd.execute === 'query-status')
        held = cmd; // answered after the next command
      else if (cmd.execute === 'system_powerdown') {
        const reply = `{"timestamp": {"seconds": 1, "microseconds": 0}, "event": "POWERDOWN"}\r\n{"return": {}, "id": "${cmd.id}"}\r\n{"return": {"status": "running", "running": true}, "id": "${held?.id}"}\r\n`;
        sock.write(reply.slice(0, 30));
        setTimeout(() => sock.write(reply.slice(30)), 20);
      } else {
        sock.write(
          `{"error": {"class": "CommandNotFound", "desc": "The command ${cmd.execute} has not been found"}, "id": "${cmd.id}"}\r\n`,
        );
      }
    });
    cleanup = qemu.close;
    const qmp = await QmpClient.connect(qemu.socketPath);
    const events: string[] = [];
    qmp.onEvent((e) => events.push(e.event));
    const status = qmp.execute('query-status');
    const powerdownEvent = qmp.waitEvent('POWERDOWN', 2000);
    const powerdown = qmp.execute('system_powerdown');
    await expect(powerdown).resolves.toEqual({});
    await expect(status).resolves.toEqual({ status: 'running', running: true });
    await expect(powerdownEvent).resolves.toMatchObject({ event: 'POWERDOWN' });
    expect(events).toEqual(['POWERDOWN']);
    const err = await qmp.execute('nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QmpError);
    expect(err).toMatchObject({
      qmpClass: 'CommandNotFound',
      message: 'The command nope has not been found',
    });
    expect(qemu.received[0]).toEqual({ execute: 'qmp_capabilities', id: 'c1' });
    expect(qemu.received[2]).toEqual({ execute: 'system_powerdown', id: 'c3' });
    qmp.close();
  });

  it('sends arguments, and rejects pending commands and waits when QEMU goes away', async () => {
    const qemu = await fakeQemu((cmd, sock) => {
      if (cmd.execute === 'qmp_capabilities') sock.write(`{"return": {}, "id": "${cmd.id}"}\n`);
      else if (cmd.execute === 'quit') sock.end(`{"return": {}, "id": "${cmd.id}"}\n`);
    });
    cleanup = qemu.close;
    const qmp = await QmpClient.connect(qemu.socketPath);
    const never = qmp.execute('change-vnc-password', { password: 'secret' });
    const shutdown = qmp.waitEvent('SHUTDOWN', 5000);
    await expect(qmp.execute('quit')).resolves.toEqual({});
    await qmp.closed;
    await expect(never).rejects.toThrow('QMP connection closed');
    await expect(shutdown).rejects.toThrow('QMP connection closed before SHUTDOWN');
    expect(qemu.received[1]).toEqual({
      execute: 'change-vnc-password',
      arguments: { password: 'secret' },
      id: 'c2',
    });
    await expect(qmp.execute('query-status')).rejects.toThrow('QMP connection closed');
  });

  it('gives up when no greeting comes', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'qmp-test-'));
    const socketPath = path.join(dir, 'qmp.sock');
    const server = net.createServer(() => {});
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    cleanup = async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    };
    await expect(QmpClient.connect(socketPath, 200)).rejects.toThrow('no QMP greeting');
  });
});
