export * from './ErrorSummary';
export * from './UserDetailsDrawer';
export * from './UserFields';
export * from './UserPicker';
export * from './actions';
export * from './generate';
export * from './serverErrors';
export * from './UserFormDialog';
