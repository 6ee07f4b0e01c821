// antd's Result on its own, for `LazyResult` to load.
export { Result } from 'antd';
