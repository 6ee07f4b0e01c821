/**
 * The signed-in frame's measures: the layout draws them, and a page list sizes its rows from them
 * before anything is laid out (a first visit's list renders its rows in its first commit).
 */
import type { Screens } from './screens';

/** The side menu's width beside the page from `lg` up (below it the menu is a drawer). */
export const SIDER_WIDTH = 240;

/** The page's padding inside the frame. */
export const contentPadding = (screens: Screens) => (screens.lg ? 24 : 12);

/** A card's body padding inside the page (DataTable's list card: tighter on a phone). */
export const cardPadding = (screens: Screens) => (screens.xs ? 12 : 24);

const CARD_BORDER = 1;

/**
 * The width of a card's body that fills the page, from the window alone: what it measures once laid
 * out, unless the page puts the card beside something else.
 */
export const cardBodyWidth = (screens: Screens) =>
  document.documentElement.clientWidth - (screens.lg ? SIDER_WIDTH : 0) - 2 * contentPadding(screens) - 2 * (cardPadding(screens) + CARD_BORDER);
