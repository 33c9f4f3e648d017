// The word a Sets row gives a tool's server: the server's real status (a live one's state now), never the
// recorded "running" beside "server stopped now" or for a server that failed to start.
import { describe, expect, it } from 'vitest';
import { bridgeStartFailure, serverWord } from './serverWord';

describe("a Sets row's server word", () => {
  it('a simulated server reads as recorded', () => {
    expect(serverWord('running', undefined)).toEqual({ word: 'running', tone: 'ok' });
    expect(serverWord('offline', undefined)).toEqual({ word: 'offline', tone: 'bad' });
  });

  it('a live server reads as it is now, with the recorded status said where it differs', () => {
    expect(serverWord('running', { kind: 'running', refreshing: false })).toEqual({ word: 'running', tone: 'ok' });
    expect(serverWord('running', { kind: 'offline' })).toEqual({ word: 'stopped', tone: 'bad', recorded: 'running' });
    expect(serverWord('running', { kind: 'failed', reason: 'unreachable', message: 'no answer' })).toEqual({ word: 'failed', tone: 'bad', recorded: 'running' });
    expect(serverWord('offline', { kind: 'running', refreshing: true })).toEqual({ word: 'running', tone: 'ok', recorded: 'offline' });
    expect(serverWord('running', { kind: 'connecting', phase: 'listing tools' })).toEqual({ word: 'connecting', tone: 'plain' });
  });

  it('a bridge server that failed to start is failed, not stopped, with the bridge\'s error', () => {
    expect(bridgeStartFailure(false, { status: 'failed', error: 'exited with code 1' })).toEqual({ kind: 'failed', reason: 'protocol', message: 'it failed to start: exited with code 1' });
    expect(bridgeStartFailure(false, { status: 'stopped' })).toBeUndefined();
    expect(bridgeStartFailure(true, { status: 'failed', error: 'x' })).toBeUndefined();
    expect(bridgeStartFailure(false, undefined)).toBeUndefined();
  });
});
