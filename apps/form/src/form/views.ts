import { join } from 'node:path';

/** Where the build puts the templates, the stylesheet and the scripts: beside this file's directory. */
export const VIEWS_DIR = join(__dirname, '..', 'views');
