import { UserEntity } from '../account/user.entity';

/** Every TypeORM entity of the service; the drift check compares these with the migrations. */
export const ENTITIES = [UserEntity];
