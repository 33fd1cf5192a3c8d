/** Side menu (being built). */
export function SideMenu() {
  return null;
}
