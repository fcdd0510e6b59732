import { DevicePage as EquipmentDevicePage } from '../../features/devices/routes/device-page';
import { RecipesPanel } from '../../features/recipes/components/device-recipes-panel';

/** `/account/devices/{id}`: the equipment feature's device page with the recipes feature's tab. */
export function DevicePage() {
  return <EquipmentDevicePage RecipesPanel={RecipesPanel} />;
}
