export { ensureWebBuild } from '../../scripts/lib/webBuild';
