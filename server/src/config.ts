import { resolve } from 'node:path';

/** Settings from the environment; secrets are read here and nowhere else. */
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  mongodbUri?: string;
  root: string;
  bodyLimit: number;
  logLevel: string;
  adminEmail: string;
  adminPassword: string;
  smtpUrl?: string;
  publicUrl: string;
}

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${value}"`);
  return n;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = int(env.PORT, 3000, 'PORT');
  const host = env.HOST || '127.0.0.1';
  return {
    port,
    host,
    dataDir: resolve(env.DATA_DIR || './data'),
    mongodbUri: env.MONGODB_URI || undefined,
    root: resolve(env.APP_ROOT || '.'),
    bodyLimit: int(env.BODY_LIMIT, 1024 * 1024, 'BODY_LIMIT'),
    logLevel: env.LOG_LEVEL || 'info',
    adminEmail: env.ADMIN_EMAIL || 'admin@demo.local',
    adminPassword: env.ADMIN_PASSWORD || 'Demo-admin-2026',
    smtpUrl: env.SMTP_URL || undefined,
    publicUrl: env.PUBLIC_URL || `http://${host}:${port}`,
  };
}
