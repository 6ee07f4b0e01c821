// In a browser axios sends through XMLHttpRequest, its first choice; its fetch adapter is never
// chosen. This answers, as axios asks each adapter, that fetch is not supported here.
export const getFetch = () => false;
