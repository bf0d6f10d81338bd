import { describe, expect, it } from 'vitest';
import { AgentConfigError, parseAgentEnv } from './env';

describe('parseAgentEnv', () => {
  it('applies the spec defaults (heartbeat 30 s, update interval 60 s) and safe ones', () => {
    const env = parseAgentEnv({
      RENTGPU_SERVER_URL: 'https://rentgpu.example',
      AGENT_PUBLIC_HOST: '',
    });
    expect(env.AGENT_HEARTBEAT_INTERVAL_MS).toBe(30_000);
    expect(env.AGENT_UPDATE_INTERVAL_MS).toBe(60_000);
    expect(env.AGENT_ALLOW_SOFTWARE_EMULATION).toBe(false);
    expect(env.AGENT_GPU_PASSTHROUGH).toBe(true);
    expect(env.AGENT_SSH_PORTS).toEqual([22000, 22999]);
    expect(env.AGENT_VNC_DISPLAYS).toEqual([0, 99]);
    expect(env.AGENT_STATE_DIR).toBe('/var/lib/rentgpu-agent');
    expect(env.AGENT_IMAGE_CACHE_GIB).toBe(50);
    expect(env.AGENT_DRIVERS).toEqual(['vm']);
    expect(env.AGENT_CONTAINER_SSH_PORTS).toEqual([23000, 23999]);
    expect(env.AGENT_CDI_KIND).toBe('nvidia.com/gpu');
    expect(env.AGENT_PULL_TMPDIR).toBe('/var/tmp');
    expect(
      parseAgentEnv({ RENTGPU_SERVER_URL: 'http://x', TMPDIR: '/scratch' }).AGENT_PULL_TMPDIR,
    ).toBe('/scratch');
    expect(
      parseAgentEnv({ RENTGPU_SERVER_URL: 'http://x', AGENT_DRIVERS: 'container, vm' })
        .AGENT_DRIVERS,
    ).toEqual(['container', 'vm']);
    expect(
      parseAgentEnv({
        RENTGPU_SERVER_URL: 'http://x',
        AGENT_PODMAN_FLAGS: ' --root /r  --runroot /rr',
      }).AGENT_PODMAN_FLAGS,
    ).toEqual(['--root', '/r', '--runroot', '/rr']);
    expect(
      parseAgentEnv({ RENTGPU_SERVER_URL: 'http://x', AGENT_IMAGE_CACHE_GIB: '0.5' })
        .AGENT_IMAGE_CACHE_GIB,
    ).toBe(0.5);
    // Unset: the server tells the agent which of its own addresses renters connect to.
    expect(env.AGENT_PUBLIC_HOST).toBeUndefined();
  });

  it('refuses a public host that is no address (shell text, an ssh option)', () => {
    for (const bad of ['h.example;id;#', '-oProxyCommand=id', 'a b']) {
      expect(() =>
        parseAgentEnv({ RENTGPU_SERVER_URL: 'https://rentgpu.example', AGENT_PUBLIC_HOST: bad }),
      ).toThrow(/AGENT_PUBLIC_HOST: Not a host name or IP address/);
    }
  });

  it('names each bad variable', () => {
    expect(() =>
      parseAgentEnv({
        RENTGPU_SERVER_URL: 'ftp://x',
        AGENT_SSH_PORTS: '9-1',
        AGENT_ALLOW_SOFTWARE_EMULATION: 'yes',
      }),
    ).toThrow(
      /RENTGPU_SERVER_URL: must be http\(s\):\/\/\n {2}AGENT_ALLOW_SOFTWARE_EMULATION: .*\n {2}AGENT_SSH_PORTS: must be a range like 22000-22999/,
    );
    expect(() => parseAgentEnv({})).toThrow(AgentConfigError);
    // Text that is no URL at all is a configuration error too, not a TypeError.
    expect(() => parseAgentEnv({ RENTGPU_SERVER_URL: 'not a url' })).toThrow(AgentConfigError);
    expect(() =>
      parseAgentEnv({ RENTGPU_SERVER_URL: 'http://x', AGENT_GUEST_KERNEL: '/k' }),
    ).toThrow('AGENT_GUEST_KERNEL and AGENT_GUEST_INITRD go together');
    // Only drivers the agent has can be chosen (the in-memory one is for its tests).
    expect(() =>
      parseAgentEnv({ RENTGPU_SERVER_URL: 'http://x', AGENT_DRIVERS: 'vm,memory' }),
    ).toThrow(/AGENT_DRIVERS: must be vm, container or vm,container/);
  });
});
