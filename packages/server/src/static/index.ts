export { contentTypeOf } from './content-type.js';
export { defaultUiDir, registerStaticUi, resolveUiDir } from './static-ui.js';
