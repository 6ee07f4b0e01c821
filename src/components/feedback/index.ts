export * from './StatusPopup';
export * from './notify';
export * from './confirm';
export * from './MountWhenOpened';
