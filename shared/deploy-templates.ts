import { yamlString } from './rules/yaml';

/**
 * The Instant Deploy templates (ids, cores, RAM and deploy times are fixed figures of the
 * product, docs/rules.md, Business constants; names, descriptions, recommended GPUs and
 * software lists are ours and describe what the user-data below really installs). Each
 * template's setup is cloud-init user-data for Ubuntu 22.04 cloud images; the host's agent
 * hands it to the VM beside the platform's own part (agent/qemu/seed.ts), and cloud-init runs
 * it on first boot.
 */

export const DEPLOY_TEMPLATE_IDS = [
  'pytorch',
  'tensorflow',
  'huggingface',
  'stable-diffusion',
  'ollama',
  'cuda-dev',
] as const;
export type DeployTemplateId = (typeof DEPLOY_TEMPLATE_IDS)[number];

export interface DeployTemplate {
  id: DeployTemplateId;
  name: string;
  description: string;
  cpuCores: number;
  ramGb: number;
  recommendedGpu: string;
  software: readonly string[];
  /** The deploy time the page promises, in seconds. */
  deploySeconds: number;
}

/** Where the template's JupyterLab listens inside the VM (reached through an SSH tunnel). */
export const JUPYTER_PORT = 8888;

/** Installed on first boot when an NVIDIA GPU is passed through (see DRIVER_SCRIPT). */
const DRIVER = 'NVIDIA driver 535';
/** On 127.0.0.1:8888 inside the VM, with a token of its own per instance. */
const JUPYTER = 'JupyterLab (port 8888)';

export const DEPLOY_TEMPLATES: readonly DeployTemplate[] = [
  {
    id: 'pytorch',
    name: 'PyTorch',
    description:
      'PyTorch with its CUDA 12.1 build, torchvision and torchaudio in a Python virtual environment, with JupyterLab.',
    cpuCores: 8,
    ramGb: 32,
    recommendedGpu: 'RTX 4090',
    software: [
      DRIVER,
      'Python 3.10 venv',
      'PyTorch (CUDA 12.1)',
      'torchvision',
      'torchaudio',
      JUPYTER,
    ],
    deploySeconds: 45,
  },
  {
    id: 'tensorflow',
    name: 'TensorFlow',
    description:
      "TensorFlow 2 with NVIDIA's CUDA and cuDNN libraries from pip (tensorflow[and-cuda]), Keras included, with JupyterLab.",
    cpuCores: 8,
    ramGb: 32,
    recommendedGpu: 'RTX 4090',
    software: [DRIVER, 'Python 3.10 venv', 'TensorFlow 2 + CUDA libraries', 'Keras', JUPYTER],
    deploySeconds: 50,
  },
  {
    id: 'huggingface',
    name: 'Hugging Face',
    description:
      'Transformers, Datasets and Accelerate on PyTorch, for fine-tuning and serving open models from the Hugging Face Hub, with JupyterLab.',
    cpuCores: 16,
    ramGb: 64,
    recommendedGpu: 'A100 80GB',
    software: [
      DRIVER,
      'Python 3.10 venv',
      'PyTorch (CUDA 12.1)',
      'Transformers',
      'Datasets',
      'Accelerate',
      'huggingface_hub CLI',
      JUPYTER,
    ],
    deploySeconds: 60,
  },
  {
    id: 'stable-diffusion',
    name: 'Stable Diffusion',
    description:
      'Hugging Face Diffusers on PyTorch for Stable Diffusion image generation; models download from the Hub on first use. With JupyterLab.',
    cpuCores: 12,
    ramGb: 48,
    recommendedGpu: 'RTX 4090',
    software: [
      DRIVER,
      'Python 3.10 venv',
      'PyTorch (CUDA 12.1)',
      'Diffusers',
      'Transformers',
      'Accelerate',
      'safetensors',
      JUPYTER,
    ],
    deploySeconds: 90,
  },
  {
    id: 'ollama',
    name: 'Ollama',
    description:
      'Ollama running as a service on port 11434 inside the VM, ready to pull and run open LLMs (ollama pull llama3.1), with its Python client in JupyterLab.',
    cpuCores: 8,
    ramGb: 64,
    recommendedGpu: 'RTX 4090',
    software: [DRIVER, 'Ollama service (port 11434)', 'ollama Python client', JUPYTER],
    deploySeconds: 120,
  },
  {
    id: 'cuda-dev',
    name: 'CUDA Development',
    description:
      "NVIDIA's CUDA Toolkit 12.4 (nvcc, libraries, Nsight tools) from NVIDIA's apt repository, with a C/C++ toolchain, CMake, Git and GDB.",
    cpuCores: 4,
    ramGb: 16,
    recommendedGpu: 'RTX 4070',
    software: [
      DRIVER,
      'CUDA Toolkit 12.4',
      'GCC and build-essential',
      'CMake',
      'Git',
      'GDB',
      JUPYTER,
    ],
    deploySeconds: 30,
  },
];

export function isDeployTemplateId(value: unknown): value is DeployTemplateId {
  return typeof value === 'string' && (DEPLOY_TEMPLATE_IDS as readonly string[]).includes(value);
}

export function deployTemplate(id: DeployTemplateId): DeployTemplate {
  const found = DEPLOY_TEMPLATES.find((t) => t.id === id);
  if (!found) throw new Error(`unknown deploy template ${id}`);
  return found;
}

/** Storage of a deploy, in GB (docs/rules.md, Business constants). */
export const DEPLOY_STORAGE_GB = { min: 20, max: 1000, initial: 50 } as const;
/** $0.001 per GB per hour, added to the GPU's hourly rate. */
export const DEPLOY_STORAGE_USD_PER_GB_HOUR = 0.001;

/** The storage field's value: a whole number 20–1000, anything else 50. */
export function deployStorageFromInput(raw: string | number): number {
  const n = typeof raw === 'number' ? raw : Number(raw.trim() === '' ? Number.NaN : raw);
  return Number.isInteger(n) && n >= DEPLOY_STORAGE_GB.min && n <= DEPLOY_STORAGE_GB.max
    ? n
    : DEPLOY_STORAGE_GB.initial;
}

/** The estimated cost per hour: GPU rate plus storage × $0.001, in dollars. */
export function deployHourlyCost(gpuRate: number, storageGb: number): number {
  return gpuRate + storageGb * DEPLOY_STORAGE_USD_PER_GB_HOUR;
}

// --- cloud-init user-data -------------------------------------------------------------------

const VENV = '/opt/rentgpu/venv';
const PIP = `${VENV}/bin/pip`;
const TORCH_CU121 = [
  'torch',
  'torchvision',
  'torchaudio',
  '--index-url',
  'https://download.pytorch.org/whl/cu121',
];

interface Setup {
  packages: readonly string[];
  /** runcmd steps after the driver and the virtual environment (argument lists, no shell). */
  steps: readonly (readonly string[])[];
  files?: readonly { path: string; permissions?: string; content: string }[];
}

const SETUPS: Record<DeployTemplateId, Setup> = {
  pytorch: {
    packages: [],
    steps: [
      [PIP, 'install', ...TORCH_CU121],
      [PIP, 'install', 'jupyterlab'],
    ],
  },
  tensorflow: {
    packages: [],
    steps: [[PIP, 'install', 'tensorflow[and-cuda]', 'jupyterlab']],
  },
  huggingface: {
    packages: ['git-lfs'],
    steps: [
      [PIP, 'install', ...TORCH_CU121],
      [
        PIP,
        'install',
        'transformers',
        'datasets',
        'accelerate',
        'huggingface_hub[cli]',
        'jupyterlab',
      ],
    ],
  },
  'stable-diffusion': {
    packages: [],
    steps: [
      [PIP, 'install', ...TORCH_CU121],
      [PIP, 'install', 'diffusers', 'transformers', 'accelerate', 'safetensors', 'jupyterlab'],
    ],
  },
  ollama: {
    packages: ['curl'],
    steps: [
      // Ollama's own installer: the binary, an `ollama` user and the ollama.service unit.
      ['sh', '-c', 'curl -fsSL https://ollama.com/install.sh | sh'],
      ['systemctl', 'enable', '--now', 'ollama.service'],
      [PIP, 'install', 'ollama', 'jupyterlab'],
    ],
  },
  'cuda-dev': {
    packages: ['build-essential', 'cmake', 'git', 'gdb', 'wget'],
    steps: [
      [
        'wget',
        '-q',
        '-O',
        '/tmp/cuda-keyring.deb',
        'https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2204/x86_64/cuda-keyring_1.1-1_all.deb',
      ],
      ['dpkg', '-i', '/tmp/cuda-keyring.deb'],
      ['apt-get', 'update'],
      ['apt-get', 'install', '-y', 'cuda-toolkit-12-4'],
      [PIP, 'install', 'jupyterlab'],
    ],
    files: [
      {
        path: '/etc/profile.d/cuda.sh',
        permissions: '0644',
        content: [
          'export PATH=/usr/local/cuda/bin:$PATH',
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion.
          'export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}',
          '',
        ].join('\n'),
      },
    ],
  },
};

/** Installs NVIDIA's server driver when a GPU is passed through and no driver is there yet. */
const DRIVER_SCRIPT = `#!/bin/bash
set -eu
if lspci -nn | grep -qi nvidia && ! command -v nvidia-smi >/dev/null; then
  ubuntu-drivers install --gpgpu nvidia:535-server
  DEBIAN_FRONTEND=noninteractive apt-get install -y nvidia-utils-535-server
  touch /run/rentgpu-reboot
fi
`;

const jupyterUnit = (user: string) => `[Unit]
Description=JupyterLab (RentGPU deploy template)
After=network-online.target
Wants=network-online.target

[Service]
User=${user}
WorkingDirectory=/home/${user}
EnvironmentFile=/etc/rentgpu/jupyter.env
ExecStart=${VENV}/bin/jupyter lab --no-browser --ip=127.0.0.1 --port=${JUPYTER_PORT} --ServerApp.root_dir=/home/${user}
Restart=on-failure

[Install]
WantedBy=multi-user.target
`;

/**
 * A YAML block scalar (`|`) of `text`, indented. Block scalars have no escapes: only printable
 * ASCII lines, the first not starting with a space (it sets the indentation), are allowed.
 */
function block(text: string, indent: string): string {
  if (/[^ -~\n]/.test(text) || text.startsWith(' ')) throw new Error('not block-scalar text');
  return text
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => (line === '' ? '' : `${indent}${line}`))
    .join('\n');
}

/** A flow sequence of double-quoted YAML strings. */
const flow = (args: readonly string[]) => `[${args.map(yamlString).join(', ')}]`;

/** Jupyter tokens are 48 hex characters (randomToken hex from the server). */
export const JUPYTER_TOKEN_PATTERN = /^[0-9a-f]{48}$/;

/**
 * The template's `#cloud-config` for one instance: the NVIDIA driver when a GPU is attached,
 * a Python virtual environment owned by the login user, the template's software, and
 * JupyterLab as a systemd service on 127.0.0.1:8888 with the instance's own token; a reboot
 * at the end only when a driver was installed (to load it).
 */
export function deployUserData(
  id: DeployTemplateId,
  options: { jupyterToken: string; user?: string },
): string {
  const user = options.user ?? 'ubuntu';
  if (!JUPYTER_TOKEN_PATTERN.test(options.jupyterToken)) throw new Error('bad Jupyter token');
  if (!/^[a-z_][a-z0-9_-]{0,31}$/.test(user)) throw new Error('bad user name');
  const setup = SETUPS[id];
  const packages = [
    'python3-venv',
    'python3-pip',
    'pciutils',
    'ubuntu-drivers-common',
    ...setup.packages,
  ];
  const files = [
    { path: '/usr/local/sbin/rentgpu-gpu-driver', permissions: '0755', content: DRIVER_SCRIPT },
    {
      path: '/etc/rentgpu/jupyter.env',
      permissions: '0600',
      content: `JUPYTER_TOKEN=${options.jupyterToken}\n`,
    },
    {
      path: '/etc/systemd/system/rentgpu-jupyter.service',
      permissions: '0644',
      content: jupyterUnit(user),
    },
    ...(setup.files ?? []),
  ];
  const steps: string[][] = [
    ['/usr/local/sbin/rentgpu-gpu-driver'],
    ['python3', '-m', 'venv', VENV],
    [PIP, 'install', '--upgrade', 'pip'],
    ...setup.steps.map((s) => [...s]),
    ['chown', '-R', `${user}:${user}`, VENV],
    ['systemctl', 'daemon-reload'],
    ['systemctl', 'enable', '--now', 'rentgpu-jupyter.service'],
  ];
  return [
    '#cloud-config',
    `# RentGPU deploy template: ${id}`,
    'package_update: true',
    'packages:',
    ...packages.map((p) => `  - ${p}`),
    'write_files:',
    ...files.flatMap((f) => [
      `  - path: ${f.path}`,
      `    permissions: '${f.permissions ?? '0644'}'`,
      '    content: |',
      block(f.content, '      '),
    ]),
    'runcmd:',
    ...steps.map((s) => `  - ${flow(s)}`),
    'power_state:',
    '  mode: reboot',
    '  message: Rebooting once to load the NVIDIA driver',
    '  condition: test -e /run/rentgpu-reboot',
    '',
  ].join('\n');
}

/** The Jupyter token inside an instance's user-data (the server wrote it there). */
export function jupyterTokenIn(userData: string | null): string | null {
  const match = userData ? /^\s*JUPYTER_TOKEN=([0-9a-f]{48})\s*$/m.exec(userData) : null;
  return match?.[1] ?? null;
}
