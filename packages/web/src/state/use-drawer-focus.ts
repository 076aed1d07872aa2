import { useEffect, useRef } from 'react';

/** The layout's phone width (app.css): the sidebar is a drawer over the chat. */
export const PHONE_WIDTH_QUERY = '(max-width: 760px)';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusablesIn(element: HTMLElement): HTMLElement[] {
  return [...element.querySelectorAll<HTMLElement>(FOCUSABLE)];
}

function isPhoneWidth(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(PHONE_WIDTH_QUERY).matches;
}

/**
 * The phone drawer as a modal: opening it moves focus in (unless something in
 * it already has focus, like the API key field), Tab and Shift+Tab stay inside,
 * Esc closes it, and closing gives focus back to the button that opened it.
 * At desktop width the sidebar is always shown, so only Esc applies.
 */
export function useDrawerFocus({
  open,
  drawerId,
  openerId,
  onClose,
}: {
  open: boolean;
  drawerId: string;
  openerId: string;
  onClose: () => void;
}): void {
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    if (!open) return;
    const drawer = document.getElementById(drawerId);
    const modal = drawer !== null && isPhoneWidth();
    if (modal && !drawer.contains(document.activeElement)) focusablesIn(drawer)[0]?.focus();

    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        close.current();
        return;
      }
      if (!modal || event.key !== 'Tab') return;
      const items = focusablesIn(drawer);
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) return;
      const active = document.activeElement;
      const inside = drawer.contains(active);
      if (event.shiftKey && (active === first || !inside)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || !inside)) {
        event.preventDefault();
        first.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      if (!modal) return;
      // Focus inside a hidden drawer (or lost with it) goes back to the menu button.
      const active = document.activeElement;
      if (active === null || active === document.body || drawer.contains(active)) {
        document.getElementById(openerId)?.focus();
      }
    };
  }, [open, drawerId, openerId]);
}
