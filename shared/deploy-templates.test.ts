import { describe, expect, it } from 'vitest';
// `yaml` is in node_modules (a dependency of our tooling), not a dependency of the app: the
// test reads the user-data the way cloud-init's YAML loader would.
import { parse } from 'yaml';
import {
  DEPLOY_TEMPLATE_IDS,
  DEPLOY_TEMPLATES,
  deployHourlyCost,
  deployStorageFromInput,
  deployUserData,
  jupyterTokenIn,
} from './deploy-templates';

const TOKEN = 'ab'.repeat(24);

/** What each template promises, as it must appear in its setup. */
const PROMISES: Record<string, readonly string[]> = {
  pytorch: ['torch', 'torchvision', 'torchaudio', 'download.pytorch.org/whl/cu121'],
  tensorflow: ['tensorflow[and-cuda]'],
  huggingface: ['torch', 'transformers', 'datasets', 'accelerate', 'huggingface_hub[cli]'],
  'stable-diffusion': ['torch', 'diffusers', 'transformers', 'accelerate', 'safetensors'],
  ollama: ['https://ollama.com/install.sh', 'ollama.service', 'ollama'],
  'cuda-dev': ['cuda-keyring_1.1-1_all.deb', 'cuda-toolkit-12-4', '/usr/local/cuda/bin'],
};

interface CloudConfig {
  package_update: boolean;
  packages: string[];
  write_files: { path: string; permissions: string; content: string }[];
  runcmd: string[][];
  power_state: { mode: string; condition: string };
}

describe('deploy templates', () => {
  it('are the spec six with their cores, RAM and deploy times', () => {
    expect(DEPLOY_TEMPLATES.map((t) => [t.id, t.cpuCores, t.ramGb, t.deploySeconds])).toEqual([
      ['pytorch', 8, 32, 45],
      ['tensorflow', 8, 32, 50],
      ['huggingface', 16, 64, 60],
      ['stable-diffusion', 12, 48, 90],
      ['ollama', 8, 64, 120],
      ['cuda-dev', 4, 16, 30],
    ]);
    for (const t of DEPLOY_TEMPLATES) {
      expect(t.name.length).toBeGreaterThan(0);
      expect(t.software.length).toBeGreaterThan(2);
    }
  });

  for (const id of DEPLOY_TEMPLATE_IDS) {
    describe(id, () => {
      const text = deployUserData(id, { jupyterToken: TOKEN });
      const config = parse(text) as CloudConfig;
      const commands = config.runcmd.map((step) => step.join(' '));
      const all = `${commands.join('\n')}\n${config.packages.join('\n')}\n${config.write_files
        .map((f) => f.content)
        .join('\n')}`;

      it('is a #cloud-config document that parses as YAML into cloud-init keys', () => {
        expect(text.startsWith('#cloud-config\n')).toBe(true);
        expect(config.package_update).toBe(true);
        expect(Array.isArray(config.packages)).toBe(true);
        for (const step of config.runcmd) {
          expect(Array.isArray(step)).toBe(true);
          for (const arg of step) expect(typeof arg).toBe('string');
        }
        for (const file of config.write_files) {
          expect(file.path).toMatch(/^\//);
          expect(file.permissions).toMatch(/^0[0-7]{3}$/);
        }
        expect(config.power_state).toEqual({
          mode: 'reboot',
          message: expect.any(String),
          condition: 'test -e /run/rentgpu-reboot',
        });
      });

      it('installs what the template promises', () => {
        for (const word of PROMISES[id] ?? ['missing']) expect(all).toContain(word);
        // Every template has JupyterLab as a service with the instance's token.
        expect(all).toContain('jupyterlab');
        const unit = config.write_files.find(
          (f) => f.path === '/etc/systemd/system/rentgpu-jupyter.service',
        );
        expect(unit?.content).toContain(
          'ExecStart=/opt/rentgpu/venv/bin/jupyter lab --no-browser --ip=127.0.0.1 --port=8888',
        );
        expect(unit?.content).toContain('User=ubuntu');
        expect(unit?.content).toContain('EnvironmentFile=/etc/rentgpu/jupyter.env');
        const env = config.write_files.find((f) => f.path === '/etc/rentgpu/jupyter.env');
        expect(env).toEqual({
          path: '/etc/rentgpu/jupyter.env',
          permissions: '0600',
          content: `JUPYTER_TOKEN=${TOKEN}\n`,
        });
        expect(commands.at(-1)).toBe('systemctl enable --now rentgpu-jupyter.service');
        // The driver comes first, and the venv exists before anything is pip-installed.
        expect(commands[0]).toBe('/usr/local/sbin/rentgpu-gpu-driver');
        expect(commands[1]).toBe('python3 -m venv /opt/rentgpu/venv');
        expect(config.packages).toContain('python3-venv');
      });

      it('gives its token back to the server, and only a well-formed one goes in', () => {
        expect(jupyterTokenIn(text)).toBe(TOKEN);
        expect(() => deployUserData(id, { jupyterToken: 'x\nruncmd: [evil]' })).toThrow();
        expect(() => deployUserData(id, { jupyterToken: TOKEN, user: 'a b' })).toThrow();
      });
    });
  }

  it('the driver script installs only when an NVIDIA GPU is there and no driver is', () => {
    const config = parse(deployUserData('pytorch', { jupyterToken: TOKEN })) as CloudConfig;
    const script = config.write_files.find((f) => f.path === '/usr/local/sbin/rentgpu-gpu-driver');
    expect(script?.content).toMatch(/^#!\/bin\/bash\n/);
    expect(script?.content).toContain(
      'if lspci -nn | grep -qi nvidia && ! command -v nvidia-smi >/dev/null; then',
    );
    expect(script?.content).toContain('ubuntu-drivers install --gpgpu nvidia:535-server');
  });

  it('no user-data, no token', () => {
    expect(jupyterTokenIn(null)).toBeNull();
    expect(jupyterTokenIn('#cloud-config\n')).toBeNull();
  });
});

describe('deploy storage and cost', () => {
  it('storage is a whole number 20–1000; anything else falls back to 50', () => {
    expect(deployStorageFromInput('20')).toBe(20);
    expect(deployStorageFromInput('1000')).toBe(1000);
    expect(deployStorageFromInput(300)).toBe(300);
    for (const bad of ['19', '1001', '', 'abc', '50.5', '-5', ' '])
      expect(deployStorageFromInput(bad)).toBe(50);
  });

  it('costs the GPU rate plus $0.001 per GB per hour', () => {
    expect(deployHourlyCost(1.5, 50).toFixed(3)).toBe('1.550');
    expect(deployHourlyCost(0.7, 1000).toFixed(3)).toBe('1.700');
    expect(deployHourlyCost(3.2, 20).toFixed(3)).toBe('3.220');
  });
});
