/** The status popup (docs/domain.md#forms-and-dialogs): success, error, warning or info, an OK button, auto-close. */
import { Button, Modal } from 'antd';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import { POPUP_AUTO_CLOSE_MS } from '../../contract';
import { LazyResult } from './LazyResult';

export interface StatusPopupOptions {
  type: 'success' | 'error' | 'warning' | 'info';
  title: string;
  message?: ReactNode;
  /** Milliseconds before it closes by itself (default 3000; 0 keeps it open). */
  autoCloseMs?: number;
}

const StatusPopupContext = createContext<(options: StatusPopupOptions) => void>(() => undefined);

export function StatusPopupProvider({ children }: { children: ReactNode }) {
  const [popup, setPopup] = useState<StatusPopupOptions | null>(null);
  const close = useCallback(() => setPopup(null), []);
  useEffect(() => {
    const ms = popup?.autoCloseMs ?? POPUP_AUTO_CLOSE_MS;
    if (!popup || ms <= 0) return;
    const timer = setTimeout(close, ms);
    return () => clearTimeout(timer);
  }, [popup, close]);
  return (
    <StatusPopupContext.Provider value={setPopup}>
      {children}
      <Modal open={Boolean(popup)} onCancel={close} footer={null} centered destroyOnHidden width={420}>
        {popup && (
          <LazyResult
            status={popup.type}
            title={popup.title}
            subTitle={popup.message}
            extra={
              <Button type="primary" onClick={close}>
                OK
              </Button>
            }
          />
        )}
      </Modal>
    </StatusPopupContext.Provider>
  );
}

export const useStatusPopup = () => useContext(StatusPopupContext);
