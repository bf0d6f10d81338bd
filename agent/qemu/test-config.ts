import type { DriverConfig } from './driver';

/**
 * A QEMU driver's settings for tests that never boot a guest: `binaries` says what runs in
 * place of qemu-img and genisoimage (`false`: any attempt fails the test).
 */
export function noBootConfig(
  stateDir: string,
  binaries: { qemuImg: string; genisoimage: string },
): DriverConfig {
  return {
    stateDir,
    qemuBinary: 'false',
    qemuImgBinary: binaries.qemuImg,
    genisoimageBinary: binaries.genisoimage,
    accelerator: 'tcg',
    baseImage: null,
    kernel: null,
    listenHost: '127.0.0.1',
    publicHost: '127.0.0.1',
    sshPorts: [42000, 42099],
    vncDisplays: [90, 99],
    bootTimeoutMs: 1000,
    stopTimeoutMs: 100,
    gpuPassthrough: false,
  };
}
