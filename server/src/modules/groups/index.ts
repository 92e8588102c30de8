// Groups: the module's public face.
export { groupHandlers } from './groups.handlers';
export { sharesVisibleGroup, viewerOf } from './group-visibility';
